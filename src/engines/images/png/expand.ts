import type { PngStructure } from "./chunks";

// One un-filtered scanline to RGBA8, exactly as decodePng (the `png` crate with
// EXPAND | STRIP_16, then jSquash's grey/RGB -> RGBA) gives it:
//  - 16-bit samples keep their high byte (STRIP_16 truncates, no rounding);
//  - 1/2/4-bit grey is scaled by 255 / (2^depth - 1);
//  - a grey or RGB tRNS key is compared with the samples before any scaling:
//    all 16 bits at depth 16, only the key's low byte below that (the crate
//    drops the high byte of the stored 16-bit key), alpha 0 on a match, else 255;
//  - a palette index past the PLTE entries gives black, and its alpha is the tRNS
//    entry if there is one, else 255.

export type RowExpander = (src: Uint8Array, srcOff: number, width: number, out: Uint8Array, outOff: number, outStep: number) => void;

/** An expander for the image's format; `outStep` is the distance between output pixels in pixels (Adam7 passes). */
export function rowExpander(s: PngStructure): RowExpander {
  const { colorType: t, bitDepth: d } = s.header;
  const trns = s.trns;
  if (t === 3) return paletteExpander(s.palette!, trns, d);
  if (t === 0) {
    if (d === 16) {
      const key = trns ? (trns[0] << 8) | trns[1] : -1;
      return (src, so, w, out, oo, step) => {
        const os = step * 4;
        for (let x = 0; x < w; x++, so += 2, oo += os) {
          const g = src[so];
          out[oo] = out[oo + 1] = out[oo + 2] = g;
          out[oo + 3] = ((g << 8) | src[so + 1]) === key ? 0 : 255;
        }
      };
    }
    // Depths 1..8 through a lookup table of RGBA words per sample value.
    const max = (1 << d) - 1;
    const scale = 255 / max;
    const lut = new Uint8Array(1024);
    const key = trns ? trns[1] : -1;
    for (let v = 0; v <= max; v++) lut.set([v * scale, v * scale, v * scale, v === key ? 0 : 255], v * 4);
    return packedLutExpander(new Uint32Array(lut.buffer), d);
  }
  if (t === 2) {
    if (d === 16) {
      const k = trns ? [(trns[0] << 8) | trns[1], (trns[2] << 8) | trns[3], (trns[4] << 8) | trns[5]] : [-1, -1, -1];
      const [kr, kg, kb] = k;
      return (src, so, w, out, oo, step) => {
        const os = step * 4;
        for (let x = 0; x < w; x++, so += 6, oo += os) {
          out[oo] = src[so];
          out[oo + 1] = src[so + 2];
          out[oo + 2] = src[so + 4];
          out[oo + 3] =
            ((src[so] << 8) | src[so + 1]) === kr && ((src[so + 2] << 8) | src[so + 3]) === kg && ((src[so + 4] << 8) | src[so + 5]) === kb ? 0 : 255;
        }
      };
    }
    const [kr, kg, kb] = trns ? [trns[1], trns[3], trns[5]] : [-1, -1, -1];
    return (src, so, w, out, oo, step) => {
      const os = step * 4;
      for (let x = 0; x < w; x++, so += 3, oo += os) {
        const r = src[so],
          g = src[so + 1],
          b = src[so + 2];
        out[oo] = r;
        out[oo + 1] = g;
        out[oo + 2] = b;
        out[oo + 3] = r === kr && g === kg && b === kb ? 0 : 255;
      }
    };
  }
  if (t === 4) {
    const bytes = d === 16 ? 2 : 1;
    return (src, so, w, out, oo, step) => {
      const os = step * 4;
      for (let x = 0; x < w; x++, so += 2 * bytes, oo += os) {
        const g = src[so];
        out[oo] = out[oo + 1] = out[oo + 2] = g;
        out[oo + 3] = src[so + bytes];
      }
    };
  }
  // RGBA
  if (d === 8) {
    return (src, so, w, out, oo, step) => {
      if (step === 1) {
        out.set(src.subarray(so, so + w * 4), oo);
        return;
      }
      const os = step * 4;
      for (let x = 0; x < w; x++, so += 4, oo += os) {
        out[oo] = src[so];
        out[oo + 1] = src[so + 1];
        out[oo + 2] = src[so + 2];
        out[oo + 3] = src[so + 3];
      }
    };
  }
  return (src, so, w, out, oo, step) => {
    const os = step * 4;
    for (let x = 0; x < w; x++, so += 8, oo += os) {
      out[oo] = src[so];
      out[oo + 1] = src[so + 2];
      out[oo + 2] = src[so + 4];
      out[oo + 3] = src[so + 6];
    }
  };
}

function paletteExpander(palette: Uint8Array, trns: Uint8Array | null, depth: number): RowExpander {
  const lut = new Uint8Array(1024);
  const entries = Math.min(256, Math.floor(palette.length / 3));
  for (let i = 0; i < 256; i++) {
    if (i < entries) lut.set(palette.subarray(i * 3, i * 3 + 3), i * 4);
    lut[i * 4 + 3] = trns && i < trns.length ? trns[i] : 255;
  }
  return packedLutExpander(new Uint32Array(lut.buffer), depth);
}

/** Samples of 1, 2, 4 or 8 bits (one a pixel) mapped through a table of RGBA words. */
function packedLutExpander(lut: Uint32Array, depth: number): RowExpander {
  const mask = (1 << depth) - 1;
  return (src, so, w, out, oo, step) => {
    // Pixels are written as 32-bit words when the output is aligned (it always is: bands start at offset 0).
    const aligned = ((out.byteOffset + oo) & 3) === 0;
    if (!aligned) {
      const bytes = new Uint8Array(lut.buffer);
      for (let x = 0; x < w; x++) {
        const bit = x * depth;
        const v = (src[so + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask;
        out.set(bytes.subarray(v * 4, v * 4 + 4), oo + x * step * 4);
      }
      return;
    }
    const words = new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
    let o = oo >> 2;
    if (depth === 8) {
      for (let x = 0; x < w; x++, o += step) words[o] = lut[src[so + x]];
      return;
    }
    const perByte = 8 / depth;
    let x = 0;
    for (let i = so; x < w; i++) {
      const byte = src[i];
      for (let k = 0, shift = 8 - depth; k < perByte && x < w; k++, x++, shift -= depth, o += step) words[o] = lut[(byte >> shift) & mask];
    }
  };
}
