// Appends one revision to a PDF (ISO 32000-2, 7.5.6): the new and changed
// objects, a cross-reference section for just those objects and a trailer
// whose /Prev points at the previous section. The original bytes are left
// untouched, which is what keeps an earlier signature valid. Files whose
// last section is a cross-reference stream get a stream again (7.5.8.4).

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

export interface RevisionObject {
  num: number;
  /** The object's content between `N 0 obj` and `endobj`. */
  body: Uint8Array;
}

export interface RevisionTrailer {
  /** The highest object number + 1 before this revision's own cross-reference stream object. */
  size: number;
  root: number;
  info: number | null;
  /** The file identifier's first part is kept; the second changes with each revision (14.4). */
  id: [Uint8Array, Uint8Array] | null;
  prev: number;
  xrefStream: boolean;
}

export interface Revision {
  bytes: Uint8Array;
  /** Offset in `bytes` where each object's body starts. */
  bodyOffsets: Map<number, number>;
}

const hexString = (b: Uint8Array) => `<${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}>`;

/** The offset the file's last `startxref` names and whether a table or a stream is there; null when it points at neither. */
export function lastCrossReference(bytes: Uint8Array): { offset: number; stream: boolean } | null {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
  // Some writers pad the end with NULs; readers look past them, and so do we.
  const m = /startxref\s+(\d+)\s+%%EOF[\s\0]*$/.exec(tail);
  if (!m) return null;
  const offset = Number(m[1]);
  if (!Number.isSafeInteger(offset) || offset >= bytes.length) return null;
  const at = new TextDecoder("latin1").decode(bytes.subarray(offset, offset + 32));
  if (/^xref\s/.test(at)) return { offset, stream: false };
  if (/^\d+\s+\d+\s+obj\b/.test(at)) return { offset, stream: true };
  return null;
}

function subsections(nums: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const n of [...nums].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === n) last[1]++;
    else runs.push([n, 1]);
  }
  return runs;
}

/** `original` followed by the new revision. */
export function appendRevision(original: Uint8Array, objects: RevisionObject[], trailer: RevisionTrailer): Revision {
  const parts: Uint8Array[] = [original];
  let length = original.length;
  const push = (b: Uint8Array) => {
    parts.push(b);
    length += b.length;
  };
  const last = original[original.length - 1];
  if (last !== 0x0a && last !== 0x0d) push(latin1("\n"));

  const offsets = new Map<number, number>();
  const bodyOffsets = new Map<number, number>();
  for (const o of objects) {
    offsets.set(o.num, length);
    const head = latin1(`${o.num} 0 obj\n`);
    push(head);
    bodyOffsets.set(o.num, length);
    push(o.body);
    push(latin1("\nendobj\n"));
  }

  const common = [
    `/Root ${trailer.root} 0 R`,
    trailer.info !== null ? `/Info ${trailer.info} 0 R` : "",
    trailer.id ? `/ID [${hexString(trailer.id[0])} ${hexString(trailer.id[1])}]` : "",
    `/Prev ${trailer.prev}`,
  ]
    .filter(Boolean)
    .join(" ");
  const xrefAt = length;
  if (trailer.xrefStream) {
    const self = trailer.size;
    offsets.set(self, xrefAt);
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    // W [1 4 2]: type 1 (in use), a 4-byte offset, generation 0.
    const rows = new Uint8Array(nums.length * 7);
    nums.forEach((n, i) => {
      const off = offsets.get(n) ?? 0;
      rows.set([1, off >>> 24, (off >>> 16) & 0xff, (off >>> 8) & 0xff, off & 0xff, 0, 0], i * 7);
    });
    const index = subsections(nums)
      .map(([s, c]) => `${s} ${c}`)
      .join(" ");
    push(latin1(`${self} 0 obj\n<< /Type /XRef /Size ${self + 1} /Index [${index}] /W [1 4 2] ${common} /Length ${rows.length} >>\nstream\n`));
    push(rows);
    push(latin1(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`));
  } else {
    let table = "xref\n";
    for (const [start, count] of subsections([...offsets.keys()])) {
      table += `${start} ${count}\n`;
      for (let n = start; n < start + count; n++) table += `${String(offsets.get(n)).padStart(10, "0")} 00000 n\r\n`;
    }
    push(latin1(`${table}trailer\n<< /Size ${trailer.size} ${common} >>\nstartxref\n${xrefAt}\n%%EOF\n`));
  }

  const bytes = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, bodyOffsets };
}

export { latin1 };
