import { u16be } from "../util/bytes";

// Walks a JPEG's marker structure without decoding any pixel: enough to read
// the frame header (size, precision, coding), the APPn metadata and to tell a
// complete file from a truncated one.

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const DQT = 0xdb;
export const DHT = 0xc4;
export const DRI = 0xdd;
export const DAC = 0xcc;

export interface JpegSegment {
  marker: number;
  /** Offset of the 0xFF that starts the marker. */
  offset: number;
  /** Payload after the 2-byte length. */
  data: Uint8Array;
}

export interface FrameComponent {
  id: number;
  h: number;
  v: number;
  tq: number;
}

export interface JpegFrame {
  /** SOFn marker byte: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC9.. arithmetic. */
  marker: number;
  precision: number;
  width: number;
  height: number;
  components: FrameComponent[];
}

export interface JpegScan {
  /** Offset of the SOS marker. */
  offset: number;
  header: Uint8Array;
  /** Entropy-coded data, [start, end). */
  start: number;
  end: number;
}

export interface JpegStructure {
  frame: JpegFrame | null;
  /** Every segment with a length field, in file order (scans excluded). */
  segments: JpegSegment[];
  scans: JpegScan[];
  /** EOI reached after at least one scan. */
  complete: boolean;
}

const isSof = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== DHT && m !== 0xc8 && m !== DAC;
export const isArithmetic = (m: number): boolean => m >= 0xc9 && m <= 0xcf;
export const isProgressive = (m: number): boolean => m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce;
export const isLossless = (m: number): boolean => m === 0xc3 || m === 0xc7 || m === 0xcb || m === 0xcf;

function parseFrame(marker: number, d: Uint8Array): JpegFrame | null {
  if (d.length < 6) return null;
  const n = d[5];
  if (d.length < 6 + 3 * n) return null;
  const components: FrameComponent[] = [];
  for (let i = 0; i < n; i++) {
    const at = 6 + 3 * i;
    components.push({ id: d[at], h: d[at + 1] >> 4, v: d[at + 1] & 15, tq: d[at + 2] });
  }
  return { marker, precision: d[0], height: u16be(d, 1), width: u16be(d, 3), components };
}

/** Skips entropy-coded bytes: the next marker that is neither stuffing nor RSTn. */
function scanEnd(b: Uint8Array, from: number): number {
  // indexOf is native: a photo's scan is megabytes, and this runs on every parse.
  for (let i = b.indexOf(0xff, from); i >= 0 && i + 1 < b.length; i = b.indexOf(0xff, i + 1)) {
    const m = b[i + 1];
    if (m !== 0 && !(m >= 0xd0 && m <= 0xd7) && m !== 0xff) return i;
  }
  return b.length;
}

/**
 * Full parses by input: one call reads the same file's layout several times
 * (size, orientation, ICC, then the coefficients), and finding a big scan's
 * end costs milliseconds. Inputs are never written to in place.
 */
const parsed = new WeakMap<Uint8Array, JpegStructure>();

/**
 * Parses the marker layout. With `headerOnly` it stops at the frame header,
 * which is all a size check needs.
 */
export function parseJpeg(b: Uint8Array, headerOnly = false): JpegStructure {
  if (headerOnly) return parseLayout(b, true);
  let out = parsed.get(b);
  if (!out) {
    out = parseLayout(b, false);
    parsed.set(b, out);
  }
  return out;
}

function parseLayout(b: Uint8Array, headerOnly: boolean): JpegStructure {
  const out: JpegStructure = { frame: null, segments: [], scans: [], complete: false };
  if (b.length < 4 || b[0] !== 0xff || b[1] !== SOI) return out;
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) {
      // Garbage between segments: libjpeg skips it with a warning; so do we.
      i++;
      continue;
    }
    while (i < b.length && b[i] === 0xff) i++;
    if (i >= b.length) break;
    const marker = b[i];
    const offset = i - 1;
    i++;
    if (marker === EOI) {
      out.complete = out.scans.length > 0;
      break;
    }
    if (marker === SOI || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (i + 2 > b.length) break;
    const len = u16be(b, i);
    if (len < 2 || i + len > b.length) break;
    const data = b.subarray(i + 2, i + len);
    i += len;
    if (marker === SOS) {
      const end = scanEnd(b, i);
      out.scans.push({ offset, header: data, start: i, end });
      i = end;
      continue;
    }
    out.segments.push({ marker, offset, data });
    if (isSof(marker) && !out.frame) {
      out.frame = parseFrame(marker, data);
      if (headerOnly) break;
    }
  }
  return out;
}

/** APPn payloads that start with `signature` (e.g. "Exif\0\0", "ICC_PROFILE\0"). */
export function appSegments(s: JpegStructure, marker: number, signature: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const seg of s.segments) {
    if (seg.marker !== marker || seg.data.length < signature.length) continue;
    let ok = true;
    for (let k = 0; k < signature.length && ok; k++) ok = seg.data[k] === signature.charCodeAt(k);
    if (ok) out.push(seg.data.subarray(signature.length));
  }
  return out;
}

/** A marker segment as it stands in a file: FF, the marker, the big-endian length (which counts itself), the payload. */
export function segment(marker: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 4);
  out[0] = 0xff;
  out[1] = marker;
  out[2] = (payload.length + 2) >> 8;
  out[3] = (payload.length + 2) & 0xff;
  out.set(payload, 4);
  return out;
}
