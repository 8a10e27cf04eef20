// Reads what a user would check on an output file, independently of the
// engine: the format from magic bytes and the size from the header.

export type Format = "jpeg" | "png" | "webp" | "avif" | "gif" | "bmp" | "tiff";

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const le32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

export function formatOf(b: Uint8Array): Format | "unknown" {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (ascii(b, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (ascii(b, 4, 8) === "ftypavif") return "avif";
  if (ascii(b, 0, 4) === "GIF8") return "gif";
  if (ascii(b, 0, 2) === "BM") return "bmp";
  if (ascii(b, 0, 4) === "II*\0" || ascii(b, 0, 4) === "MM\0*") return "tiff";
  return "unknown";
}

function jpegSize(b: Uint8Array): [number, number] {
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) throw new Error("bad JPEG");
    const m = b[i + 1];
    const len = be16(b, i + 2);
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return [be16(b, i + 7), be16(b, i + 5)];
    i += 2 + len;
  }
  throw new Error("no SOF");
}

function avifSize(b: Uint8Array): [number, number] {
  // The first ispe box is the primary item's in everything libavif writes.
  for (let i = 0; i + 20 < b.length; i++) {
    if (ascii(b, i, 4) === "ispe") return [be32(b, i + 8), be32(b, i + 12)];
  }
  throw new Error("no ispe");
}

function tiffSize(b: Uint8Array): [number, number] {
  const le = b[0] === 0x49;
  const r16 = le ? le16 : be16;
  const r32 = le ? le32 : be32;
  const ifd = r32(b, 4);
  let w = 0,
    h = 0;
  for (let k = 0; k < r16(b, ifd); k++) {
    const at = ifd + 2 + 12 * k;
    const tag = r16(b, at),
      type = r16(b, at + 2);
    const v = type === 3 ? r16(b, at + 8) : r32(b, at + 8);
    if (tag === 256) w = v;
    if (tag === 257) h = v;
  }
  return [w, h];
}

export function sizeOf(b: Uint8Array): [number, number] {
  switch (formatOf(b)) {
    case "jpeg":
      return jpegSize(b);
    case "png":
      return [be32(b, 16), be32(b, 20)];
    case "gif":
      return [le16(b, 6), le16(b, 8)];
    case "bmp":
      return [le32(b, 18), Math.abs(le32(b, 22) | 0)];
    case "webp": {
      const kind = ascii(b, 12, 4);
      if (kind === "VP8X") return [(b[24] | (b[25] << 8) | (b[26] << 16)) + 1, (b[27] | (b[28] << 8) | (b[29] << 16)) + 1];
      if (kind === "VP8L") {
        const bits = le32(b, 21);
        return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
      }
      return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
    }
    case "avif":
      return avifSize(b);
    case "tiff":
      return tiffSize(b);
    default:
      throw new Error("unknown format");
  }
}

/** PNG IHDR colour type: 3 means palette. */
export const pngColorType = (b: Uint8Array): number => b[25];

/** JPEG APPn segment payloads starting with `sig`. */
export function jpegApp(b: Uint8Array, marker: number, sig: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 2;
  while (i + 4 < b.length && b[i] === 0xff) {
    const m = b[i + 1];
    if (m === 0xda) break;
    const len = be16(b, i + 2);
    const data = b.subarray(i + 4, i + 2 + len);
    if (m === marker && ascii(data, 0, sig.length) === sig) out.push(data.subarray(sig.length));
    i += 2 + len;
  }
  return out;
}
