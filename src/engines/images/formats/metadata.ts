import { unzlibSync, zlibSync } from "fflate";
import { ascii, ByteWriter, concat, u32be } from "../util/bytes";
import { crc32 } from "../util/crc32";
import { exifOrientation, orientationExif } from "./exif";
import { chunkBytes, riffChunk, vp8xChunk, webpChunks, webpFile } from "./webp-riff";
import { appSegments, parseJpeg, segment } from "../jpeg/markers";

// The metadata we keep (decisions in README): the ICC profile, because colours
// are wrong without it (an XYB JPEG shows green-grey), and orientation, which
// we apply to the pixels. Everything else (EXIF, XMP, comments, GPS) is dropped.

/**
 * Only an RGB profile can describe our output (always RGB pixels): a CMYK or
 * grey source's profile would be wrong on it, so it is dropped.
 */
export function rgbIcc(icc: Uint8Array | undefined): Uint8Array | undefined {
  if (!icc || icc.length < 128) return undefined;
  return String.fromCharCode(...icc.subarray(16, 20)) === "RGB " ? icc : undefined;
}

// --- JPEG --------------------------------------------------------------------

export function jpegIcc(b: Uint8Array): Uint8Array | undefined {
  const parts = appSegments(parseJpeg(b), 0xe2, "ICC_PROFILE\0");
  if (!parts.length) return undefined;
  const ordered = parts.filter((p) => p.length > 2).sort((x, y) => x[0] - y[0]);
  return concat(ordered.map((p) => p.subarray(2)));
}

export function jpegOrientation(b: Uint8Array): number {
  const exif = appSegments(parseJpeg(b), 0xe1, "Exif\0\0")[0];
  return exif ? exifOrientation(exif) : 1;
}

const ICC_CHUNK = 65519; // 65535 - length(2) - "ICC_PROFILE\0"(12) - seq(1) - count(1)

/** Inserts APP2 ICC segments (and an orientation-only EXIF when > 1) after SOI and any JFIF APP0. */
export function withJpegMetadata(jpeg: Uint8Array, meta: { icc?: Uint8Array; orientation?: number }): Uint8Array {
  const extra: Uint8Array[] = [];
  if (meta.orientation && meta.orientation > 1) {
    extra.push(segment(0xe1, concat([new TextEncoder().encode("Exif\0\0"), orientationExif(meta.orientation)])));
  }
  if (meta.icc?.length) {
    const count = Math.ceil(meta.icc.length / ICC_CHUNK);
    if (count > 255) return jpeg; // a profile over 16 MB is not worth keeping
    for (let k = 0; k < count; k++) {
      const head = concat([new TextEncoder().encode("ICC_PROFILE\0"), new Uint8Array([k + 1, count])]);
      extra.push(segment(0xe2, concat([head, meta.icc.subarray(k * ICC_CHUNK, (k + 1) * ICC_CHUNK)])));
    }
  }
  if (!extra.length) return jpeg;
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + ((jpeg[4] << 8) | jpeg[5]);
  return concat([jpeg.subarray(0, at), ...extra, jpeg.subarray(at)]);
}

// --- PNG ---------------------------------------------------------------------

interface PngChunk {
  type: string;
  start: number;
  data: Uint8Array;
}

export function pngChunks(b: Uint8Array): PngChunk[] {
  const out: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= b.length) {
    const len = u32be(b, at);
    if (at + 12 + len > b.length) break;
    out.push({ type: ascii(b, at + 4, 4), start: at, data: b.subarray(at + 8, at + 8 + len) });
    at += 12 + len;
  }
  return out;
}

export function pngIcc(b: Uint8Array): Uint8Array | undefined {
  const chunk = pngChunks(b).find((c) => c.type === "iCCP");
  if (!chunk) return undefined;
  const nul = chunk.data.indexOf(0);
  if (nul < 0 || nul + 2 > chunk.data.length) return undefined;
  try {
    return unzlibSync(chunk.data.subarray(nul + 2));
  } catch {
    return undefined;
  }
}

export function pngOrientation(b: Uint8Array): number {
  const chunk = pngChunks(b).find((c) => c.type === "eXIf");
  return chunk ? exifOrientation(chunk.data) : 1;
}

/** True when the PNG has an acTL chunk (APNG): decoders show its default image. */
export function pngIsAnimated(b: Uint8Array): number {
  const chunk = pngChunks(b).find((c) => c.type === "acTL");
  return chunk && chunk.data.length >= 4 ? u32be(chunk.data, 0) : 1;
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const w = new ByteWriter(data.length + 12);
  w.u32be(data.length);
  const typeBytes = new TextEncoder().encode(type);
  w.bytes(typeBytes);
  w.bytes(data);
  w.u32be(crc32(typeBytes, data));
  return w.result();
}

/** Puts an iCCP chunk right after IHDR, replacing sRGB/iCCP chunks already there. */
/** The iCCP chunk that carries `icc` (it goes right after IHDR). */
export function iccpChunk(icc: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode("ICC Profile\0\0");
  return pngChunk("iCCP", concat([name, zlibSync(icc, { level: 9 })]));
}

export function withPngIcc(png: Uint8Array, icc: Uint8Array | undefined): Uint8Array {
  if (!icc?.length) return png;
  const chunks = pngChunks(png);
  const parts: Uint8Array[] = [png.subarray(0, 8)];
  for (const c of chunks) {
    if (c.type === "iCCP" || c.type === "sRGB") continue;
    parts.push(png.subarray(c.start, c.start + 12 + c.data.length));
    if (c.type === "IHDR") parts.push(iccpChunk(icc));
  }
  return concat(parts);
}

// --- WebP --------------------------------------------------------------------

export function webpIcc(b: Uint8Array): Uint8Array | undefined {
  return webpChunks(b)
    .find((c) => c.type === "ICCP")
    ?.data.slice();
}

export function webpOrientation(b: Uint8Array): number {
  const exif = webpChunks(b).find((c) => c.type === "EXIF")?.data;
  if (!exif) return 1;
  // Some writers keep the JPEG-style "Exif\0\0" prefix.
  return exifOrientation(ascii(exif, 0, 4) === "Exif" ? exif.subarray(6) : exif);
}

/** Adds an ICCP chunk, turning a simple WebP into the extended (VP8X) layout the spec requires for it. */
export function withWebpIcc(webp: Uint8Array, icc: Uint8Array | undefined, width: number, height: number): Uint8Array {
  if (!icc?.length) return webp;
  const chunks = webpChunks(webp).filter((c) => c.type !== "ICCP");
  const body: Uint8Array[] = [];
  const vp8x = chunks.find((c) => c.type === "VP8X");
  let flags = vp8x ? vp8x.data[0] : 0;
  if (!vp8x) {
    const vp8l = chunks.find((c) => c.type === "VP8L");
    // VP8L header: bit 28 of the 32 bits after the signature says alpha is used.
    if (vp8l && vp8l.data.length >= 5 && vp8l.data[4] & 0x10) flags |= 0x10;
    if (chunks.some((c) => c.type === "ALPH")) flags |= 0x10;
  }
  flags |= 0x20;
  body.push(vp8xChunk(flags, width, height), riffChunk("ICCP", icc));
  for (const c of chunks) if (c.type !== "VP8X") body.push(chunkBytes(webp, c));
  return webpFile(body);
}
