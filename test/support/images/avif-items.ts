import { readBoxes, readHeifMeta } from "../../../src/engines/images/formats/isobmff";

/** Which item type the AVIF's primary item is ("av01" for one frame, "grid" for tiles). */
export function avifPrimaryType(b: Uint8Array): string {
  const meta = readHeifMeta(b);
  if (!meta) return "none";
  const box = meta.boxes.find((x) => x.type === "iinf");
  if (!box) throw new Error("AVIF without iinf");
  const entryCountBytes = b[box.start + 8] === 0 ? 2 : 4;
  for (const infe of readBoxes(b, box.body + entryCountBytes, box.end)) {
    const version = b[infe.start + 8];
    const id = version >= 3 ? new DataView(b.buffer, b.byteOffset).getUint32(infe.body) : new DataView(b.buffer, b.byteOffset).getUint16(infe.body);
    if (id !== meta.primary) continue;
    const typeAt = infe.body + (version >= 3 ? 4 : 2) + 2;
    return String.fromCharCode(...b.subarray(typeAt, typeAt + 4));
  }
  return "none";
}
