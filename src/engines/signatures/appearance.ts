import { latin1 } from "./incremental";

// The visible signature box: a Form XObject with a thin frame and text lines
// in Helvetica. Helvetica is one of the standard 14 fonts every reader has,
// so nothing is embedded; text outside WinAnsi (Latin-1 here) becomes "?".

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
// Helvetica's average advance is about half an em: enough to keep lines inside the box.
const AVERAGE_ADVANCE = 0.55;
const MAX_FONT_SIZE = 10;
const PADDING = 3;

const winAnsi = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?").replace(/([\\()])/g, "\\$1");
const num = (n: number) => String(Math.round(n * 100) / 100);

/** The appearance stream object (dictionary and data) for a box of `width` x `height` points. */
export function appearanceObject(width: number, height: number, lines: string[]): Uint8Array {
  const longest = Math.max(1, ...lines.map((l) => l.length));
  const size = Math.max(1, Math.min(MAX_FONT_SIZE, (height - 2 * PADDING) / (lines.length * 1.2), (width - 2 * PADDING) / (longest * AVERAGE_ADVANCE)));
  const leading = size * 1.2;
  const ops = [`q 0.15 0.3 0.6 RG 0.75 w 0.4 0.4 ${num(width - 0.8)} ${num(height - 0.8)} re S Q`, "BT", `/Helv ${num(size)} Tf 0 g`];
  let y = height - PADDING - size;
  for (const line of lines) {
    ops.push(`1 0 0 1 ${PADDING} ${num(y)} Tm (${winAnsi(line)}) Tj`);
    y -= leading;
  }
  ops.push("ET");
  return xobject(width, height, ops.join("\n"), `/Resources << /Font << /Helv ${FONT} >> >>`);
}

/** An empty appearance for an invisible signature: PDF 2.0 wants one on every widget (12.5.5). */
export const emptyAppearance = (): Uint8Array => xobject(0, 0, "", "");

function xobject(width: number, height: number, content: string, resources: string): Uint8Array {
  const data = latin1(content);
  const dict = `<< /Type /XObject /Subtype /Form /BBox [0 0 ${num(width)} ${num(height)}] ${resources} /Length ${data.length} >>\nstream\n`;
  const head = latin1(dict);
  const tail = latin1("\nendstream");
  const out = new Uint8Array(head.length + data.length + tail.length);
  out.set(head);
  out.set(data, head.length);
  out.set(tail, head.length + data.length);
  return out;
}
