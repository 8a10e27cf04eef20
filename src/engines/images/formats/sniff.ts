import type { ImageFormat } from "../types";

const ascii = (b: Uint8Array, at: number, s: string): boolean => {
  if (b.length < at + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};

/** The format the bytes really are, from magic numbers alone (file names lie). */
export function sniffFormat(b: Uint8Array): ImageFormat | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (ascii(b, 0, "\x89PNG\r\n\x1a\n")) return "png";
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return "gif";
  if (ascii(b, 0, "BM") && b.length >= 26) return "bmp";
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "webp";
  if (ascii(b, 0, "II*\0") || ascii(b, 0, "MM\0*")) return "tiff";
  if (ascii(b, 4, "ftyp")) {
    const size = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
    const end = Math.min(b.length, Math.max(16, size));
    // Major brand or any compatible brand: avif (still) or avis (sequence).
    for (let at = 8; at + 4 <= end; at += 4) {
      if (at === 12) continue; // minor_version
      if (ascii(b, at, "avif") || ascii(b, at, "avis")) return "avif";
    }
  }
  return null;
}
