import { u16be, u16le, u32be, u32le } from "../util/bytes";

/** EXIF orientation 1..8 from a TIFF-structured EXIF block ("II*\0" / "MM\0*"); 1 when absent or odd. */
export function exifOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  const be = tiff[0] === 0x4d && tiff[1] === 0x4d;
  if (!le && !be) return 1;
  const r16 = le ? u16le : u16be;
  const r32 = le ? u32le : u32be;
  const ifd = r32(tiff, 4);
  if (ifd + 2 > tiff.length) return 1;
  const count = r16(tiff, ifd);
  for (let k = 0; k < count; k++) {
    const at = ifd + 2 + 12 * k;
    if (at + 12 > tiff.length) break;
    if (r16(tiff, at) !== 0x0112) continue;
    const v = r16(tiff, at + 8);
    return v >= 1 && v <= 8 ? v : 1;
  }
  return 1;
}

/** The smallest EXIF block that carries only an orientation tag (big-endian TIFF). */
export function orientationExif(orientation: number): Uint8Array {
  return new Uint8Array([
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // header, IFD0 at 8
    0x00,
    0x01, // one entry
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    orientation >> 8,
    orientation & 0xff,
    0x00,
    0x00, // Orientation SHORT 1
    0x00,
    0x00,
    0x00,
    0x00, // no next IFD
  ]);
}
