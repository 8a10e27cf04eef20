// Writing the document-level XMP properties that mirror the Info dictionary
// (ISO 32000-1 14.3.2 and the PDF/A rule that the two agree). Workers have
// no DOM, and a packet carries much we must not lose (PDF/A identification,
// extension schemas, history), so an existing packet is edited as text:
// every managed property is removed wherever it is, under whatever prefix
// the packet binds its namespace to, in element or attribute form, and one
// rdf:Description with the new values is added beside the others.

import { decodeEntities } from "../../text/xmp";

export const NS = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  dc: "http://purl.org/dc/elements/1.1/",
  pdf: "http://ns.adobe.com/pdf/1.3/",
  xmp: "http://ns.adobe.com/xap/1.0/",
} as const;

/** Final values of the mirrored fields; null or absent means the property is not written. */
export interface XmpFields {
  title?: string | null;
  author?: string | null;
  subject?: string | null;
  keywords?: string[] | null;
  creator?: string | null;
  producer?: string | null;
  language?: string | null;
  createDate?: string | null;
  modifyDate?: string | null;
  metadataDate: string;
}

type Shape = "alt" | "seq" | "bag" | "text";

/** Each managed property once: namespace, local name, XMP shape, and its value from the fields. */
const PROPERTIES: [keyof typeof NS, string, Shape, (f: XmpFields) => string | string[] | null | undefined][] = [
  ["dc", "title", "alt", (f) => f.title],
  // PDF/A: dc:creator holds the Info Author as its single item.
  ["dc", "creator", "seq", (f) => (f.author ? [f.author] : null)],
  ["dc", "description", "alt", (f) => f.subject],
  ["dc", "subject", "bag", (f) => (f.keywords?.length ? f.keywords : null)],
  ["dc", "language", "bag", (f) => (f.language ? [f.language] : null)],
  ["pdf", "Keywords", "text", (f) => (f.keywords?.length ? f.keywords.join(", ") : null)],
  ["pdf", "Producer", "text", (f) => f.producer],
  ["xmp", "CreatorTool", "text", (f) => f.creator],
  ["xmp", "CreateDate", "text", (f) => f.createDate],
  ["xmp", "ModifyDate", "text", (f) => f.modifyDate],
  ["xmp", "MetadataDate", "text", (f) => f.metadataDate],
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function property(prefix: string, name: string, shape: Shape, value: string | string[]): string {
  const q = `${prefix}:${name}`;
  if (shape === "text") return `   <${q}>${escapeXml(value as string)}</${q}>`;
  if (shape === "alt") return `   <${q}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value as string)}</rdf:li></rdf:Alt></${q}>`;
  const list = shape === "seq" ? "rdf:Seq" : "rdf:Bag";
  const items = (value as string[]).map((v) => `<rdf:li>${escapeXml(v)}</rdf:li>`).join("");
  return `   <${q}><${list}>${items}</${list}></${q}>`;
}

function description(fields: XmpFields, about: string): string {
  const lines: string[] = [];
  for (const [prefix, name, shape, pick] of PROPERTIES) {
    const value = pick(fields);
    if (value !== null && value !== undefined) lines.push(property(prefix, name, shape, value));
  }
  const xmlns = (["dc", "pdf", "xmp"] as const).map((p) => `xmlns:${p}="${NS[p]}"`).join(" ");
  return `  <rdf:Description rdf:about="${escapeXml(about)}" xmlns:rdf="${NS.rdf}" ${xmlns}>\n${lines.join("\n")}\n  </rdf:Description>\n`;
}

/** Prefixes the packet binds to `uri` anywhere. */
export function prefixesOf(text: string, uri: string): string[] {
  const found = new Set<string>();
  const re = /xmlns:([\w.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(text); m; m = re.exec(text)) if (decodeEntities(m[3] ?? m[4] ?? "") === uri) found.add(m[1]);
  return [...found];
}

function withoutProperty(text: string, qname: string): string {
  const q = escapeRe(qname);
  return text
    .replace(new RegExp(`\\s*<${q}(?:\\s[^>]*)?/>`, "g"), "")
    .replace(new RegExp(`\\s*<${q}(?:\\s[^>]*)?>[\\s\\S]*?</${q}\\s*>`, "g"), "")
    .replace(new RegExp(`(<[^<>]*?)\\s${q}\\s*=\\s*(?:"[^"]*"|'[^']*')`, "g"), "$1");
}

const PADDING = `${`${" ".repeat(99)}\n`.repeat(20)}`;

/** A new packet holding only the managed properties. */
export function newPacket(fields: XmpFields): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/">\n <rdf:RDF xmlns:rdf="${NS.rdf}">\n` +
    description(fields, "") +
    ` </rdf:RDF>\n</x:xmpmeta>\n${PADDING}<?xpacket end="w"?>`
  );
}

/**
 * `packet` with the managed properties replaced by `fields`; a packet
 * without an rdf:RDF element to add to is replaced by a new one.
 */
export function updatePacket(packet: string, fields: XmpFields): string {
  const rdf = prefixesOf(packet, NS.rdf);
  const close = rdf.map((p) => new RegExp(`</${escapeRe(p)}:RDF\\s*>`).exec(packet)).find((m) => m !== null);
  if (!close) return newPacket(fields);
  let text = packet;
  for (const [ns, name] of PROPERTIES) for (const prefix of prefixesOf(packet, NS[ns])) text = withoutProperty(text, `${prefix}:${name}`);
  // Every rdf:Description of a packet names the same resource (ISO 16684-1 7.4).
  const about = rdf.map((p) => new RegExp(`\\b${escapeRe(p)}:about\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(text)).find((m) => m !== null);
  const at = rdf.map((p) => text.lastIndexOf(`</${p}:RDF`)).reduce((a, b) => Math.max(a, b), -1);
  return text.slice(0, at) + description(fields, decodeEntities(about?.[2] ?? about?.[3] ?? "")) + text.slice(at);
}
