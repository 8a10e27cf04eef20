import type { Av1Config } from "./item-props";

// The few sequence-header facts an AVIF item's av1C repeats, read from the
// temporal unit our still encoder returns (temporal delimiter, sequence
// header, frame). The encoder always writes a reduced still-picture header
// (one frame), whose first bits are all we need: seq_profile (3),
// still_picture (1), reduced_still_picture_header (1), seq_level_idx[0] (5),
// with tier 0 implied (AV1 spec 5.5.1).

const OBU_SEQUENCE_HEADER = 1;

/** leb128 (AV1 spec 4.10.5): value and byte count. */
function leb128(b: Uint8Array, at: number): [value: number, bytes: number] {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    if (at + i >= b.length) break;
    value += (b[at + i] & 0x7f) * 2 ** (7 * i);
    if (!(b[at + i] & 0x80)) return [value, i + 1];
  }
  throw new Error("AV1: bad leb128 size.");
}

/** The payload of the first sequence header OBU in `tu` (OBUs with size fields, as encoders write them). */
function sequenceHeader(tu: Uint8Array): Uint8Array {
  let at = 0;
  while (at < tu.length) {
    const header = tu[at];
    const type = (header >> 3) & 15;
    const extension = (header >> 2) & 1;
    if (!((header >> 1) & 1)) throw new Error("AV1: an OBU without a size field.");
    const [size, sizeBytes] = leb128(tu, at + 1 + extension);
    const start = at + 1 + extension + sizeBytes;
    if (start + size > tu.length) throw new Error("AV1: truncated OBU.");
    if (type === OBU_SEQUENCE_HEADER) return tu.subarray(start, start + size);
    at = start + size;
  }
  throw new Error("AV1: no sequence header.");
}

/**
 * av1C fields of an 8-bit still picture; `monochrome` and subsampling are what
 * the caller asked the encoder for (our encoder writes them as asked).
 */
export function stillConfig(tu: Uint8Array, layout: { monochrome: boolean; subsampled: boolean }): Av1Config {
  const sh = sequenceHeader(tu);
  if (sh.length < 2) throw new Error("AV1: short sequence header.");
  const profile = sh[0] >> 5;
  const reduced = (sh[0] >> 3) & 1;
  if (!reduced) throw new Error("AV1: expected a reduced still-picture sequence header.");
  const level = ((sh[0] & 0x07) << 2) | (sh[1] >> 6);
  const sub = layout.monochrome || layout.subsampled;
  return { profile, level, tier: 0, monochrome: layout.monochrome, subsamplingX: sub, subsamplingY: sub };
}
