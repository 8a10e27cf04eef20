import { LIMITS } from "../../../config";

// The last road of Repair PDF, for files too garbled for MuPDF's own
// reconstruction (its object scan gives up on the first dictionary it cannot
// parse, losing the whole file) while page objects survive in them. The
// objects are found lexically ("12 0 obj ... endobj"; the last definition of
// a number wins, as in an incremental update), each stream's /Length is set
// to the bytes actually between "stream" and "endstream", and the objects are
// written into a new file with an exact cross-reference table, a fresh page
// tree over every object that looks like a page, and a new catalog. With a
// valid table MuPDF loads objects one by one, so one garbled object costs
// that object, not the file.
//
// A page whose own dictionary is garbled ("/TM-lpe /Page", a MediaBox with
// stray characters) would still be lost; `sanitizePages` then writes each page
// from the parts that can be read: its MediaBox numbers, its /Contents and
// /Resources references.

const OBJECT_HEADER = /(\d{1,7})\s+(\d{1,5})\s+obj\b/g;
/** Object numbers above this are ignored: the table would be mostly empty entries. */
const MAX_OBJECT_NUMBER = 200_000;

// A page says so, or (its /Type key garbled) refers to its /Contents stream
// and has a /Parent or /MediaBox. Annotations (a /Rect, a /Subtype) and
// page-tree nodes (/Kids) are not pages.
const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9])/;
const NOT_PAGE = /\/(Kids|Rect|Subtype)\b/;
const PAGE_KEYS = (dict: string) => /\/Contents\s*(\d+\s+\d+\s+R|\[)/.test(dict) && /\/(Parent|MediaBox)\b/.test(dict);
const looksLikePage = (dict: string) => !NOT_PAGE.test(dict) && (PAGE_TYPE.test(dict) || PAGE_KEYS(dict));

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

interface Found {
  num: number;
  gen: number;
  /** The object's dictionary (or value), before any stream. */
  dict: string;
  /** The stream data, when the object has one. */
  stream: string | null;
}

function splitStream(body: string): { dict: string; stream: string | null } {
  const at = /\bstream\r?\n/.exec(body);
  if (!at) return { dict: body.trim(), stream: null };
  const from = at.index + at[0].length;
  const end = body.lastIndexOf("endstream");
  let data = body.slice(from, end >= from ? end : body.length);
  if (end >= from) data = data.replace(/\r?\n$/, ""); // the EOL before endstream is not data
  return { dict: body.slice(0, at.index).trim(), stream: data };
}

function objectsOf(text: string): Map<number, Found> {
  const found = new Map<number, Found>();
  const heads = [...text.matchAll(OBJECT_HEADER)];
  for (let i = 0; i < heads.length; i++) {
    const num = Number(heads[i][1]);
    if (num < 1 || num > MAX_OBJECT_NUMBER) continue;
    const start = (heads[i].index ?? 0) + heads[i][0].length;
    const next = i + 1 < heads.length ? (heads[i + 1].index ?? text.length) : text.length;
    const end = text.indexOf("endobj", start);
    const body = text.slice(start, end >= 0 && end < next ? end : next);
    found.delete(num); // the last definition wins, and keeps its place in file order
    found.set(num, { num, gen: Number(heads[i][2]), ...splitStream(body) });
  }
  return found;
}

const numbers = (text: string) => [...text.matchAll(/-?\d+(?:\.\d+)?|-?\.\d+/g)].map((m) => m[0]);
const refs = (text: string) => [...text.matchAll(/(\d+)\s+(\d+)\s+R/g)].map((m) => `${m[1]} ${m[2]} R`);

/** A page dictionary from what can be read of a garbled one. */
function sanitizedPage(dict: string, parent: number): string {
  const parts = ["/Type /Page", `/Parent ${parent} 0 R`];
  const box = /\/MediaBox\s*\[([^\]]*)/.exec(dict);
  const corners = box ? numbers(box[1]) : [];
  if (corners.length >= 4) parts.push(`/MediaBox [${corners.slice(0, 4).join(" ")}]`);
  const contents = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(dict);
  if (contents) parts.push(`/Contents [${refs(contents[1]).join(" ")}]`);
  const resources = /\/Resources\s*(\d+\s+\d+\s+R)/.exec(dict);
  if (resources) parts.push(`/Resources ${resources[1]}`);
  return `<< ${parts.join(" ")} >>`;
}

/**
 * The objects of `bytes` in a new, exactly indexed file under a fresh page
 * tree; null when no object looks like a page.
 */
export function rebuiltFile(bytes: Uint8Array, { sanitizePages }: { sanitizePages: boolean }): Uint8Array | null {
  const found = objectsOf(latin1(bytes));
  const pages = [...found.values()].filter((o) => o.stream === null && looksLikePage(o.dict)).map((o) => o.num);
  if (pages.length === 0 || pages.length > LIMITS.pdfPages) return null;
  const top = Math.max(...found.keys()) + 1;
  const tree = top;
  const catalog = top + 1;
  const written: [number, number, string][] = [];
  for (const o of found.values()) {
    let dict = o.dict;
    if (sanitizePages && pages.includes(o.num)) dict = sanitizedPage(dict, tree);
    if (o.stream === null) {
      written.push([o.num, o.gen, dict]);
      continue;
    }
    const withLength = /\/Length\s+(\d+\s+\d+\s+R|\d+)/.test(dict)
      ? dict.replace(/\/Length\s+(\d+\s+\d+\s+R|\d+)/, `/Length ${o.stream.length}`)
      : dict.replace(/>>\s*$/, `/Length ${o.stream.length}>>`);
    written.push([o.num, o.gen, `${withLength}\nstream\n${o.stream}\nendstream`]);
  }
  written.push([tree, 0, `<< /Type /Pages /Kids [${pages.map((n) => `${n} 0 R`).join(" ")}] /Count ${pages.length} >>`]);
  written.push([catalog, 0, `<< /Type /Catalog /Pages ${tree} 0 R >>`]);

  let out = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets = new Map<number, { at: number; gen: number }>();
  for (const [num, gen, body] of written) {
    offsets.set(num, { at: out.length, gen });
    out += `${num} ${gen} obj\n${body}\nendobj\n`;
  }
  const size = catalog + 1;
  const xref = out.length;
  const rows = ["xref", `0 ${size}`, "0000000000 65535 f "];
  for (let num = 1; num < size; num++) {
    const entry = offsets.get(num);
    rows.push(entry ? `${String(entry.at).padStart(10, "0")} ${String(entry.gen).padStart(5, "0")} n ` : "0000000000 00000 f ");
  }
  out += `${rows.join("\n")}\ntrailer\n<< /Size ${size} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return bytesOf(out);
}
