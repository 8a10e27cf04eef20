// Huffman coding for baseline JPEG entropy data (ITU T.81 Annex C, F; the
// optimal-table construction follows libjpeg's jpeg_gen_optimal_table).

export interface HuffmanSpec {
  /** Number of codes of each length 1..16. */
  counts: Uint8Array;
  symbols: Uint8Array;
}

/** Fast decoding table: 9-bit lookahead, then the canonical maxcode walk. */
export interface DecodeTable {
  lookup: Int32Array; // (length << 8) | symbol, or -1
  /**
   * For AC tables: an AC symbol whose code and extra bits both fit the
   * lookahead, decoded whole (libjpeg-turbo's fast-AC idea): (value << 12) |
   * (run << 4) | bits used; 0 where the slow path must run. Most
   * coefficients of a photo take this path.
   */
  fastAc: Int32Array;
  maxcode: Int32Array; // per length 1..17
  valptr: Int32Array;
  mincode: Int32Array;
  symbols: Uint8Array;
}

const LOOKAHEAD = 9;

export function decodeTable(spec: HuffmanSpec): DecodeTable {
  const maxcode = new Int32Array(18).fill(-1);
  const valptr = new Int32Array(17);
  const mincode = new Int32Array(17);
  const lookup = new Int32Array(1 << LOOKAHEAD).fill(-1);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = spec.counts[len - 1];
    valptr[len] = k;
    mincode[len] = code;
    for (let i = 0; i < n; i++, k++, code++) {
      if (len <= LOOKAHEAD) {
        const shift = LOOKAHEAD - len;
        const base = code << shift;
        for (let f = 0; f < 1 << shift; f++) lookup[base | f] = (len << 8) | spec.symbols[k];
      }
    }
    maxcode[len] = n ? code - 1 : -1;
    code <<= 1;
  }
  maxcode[17] = 0x7fffffff;
  return { lookup, fastAc: fastAcTable(lookup), maxcode, valptr, mincode, symbols: spec.symbols };
}

function fastAcTable(lookup: Int32Array): Int32Array {
  const fast = new Int32Array(1 << LOOKAHEAD);
  for (let peek = 0; peek < fast.length; peek++) {
    const hit = lookup[peek];
    if (hit < 0) continue;
    const len = hit >> 8;
    const run = (hit >> 4) & 15;
    const s = hit & 15;
    if (s === 0 || len + s > LOOKAHEAD) continue;
    const extra = (peek >> (LOOKAHEAD - len - s)) & ((1 << s) - 1);
    const value = extra < 1 << (s - 1) ? extra - (1 << s) + 1 : extra;
    fast[peek] = (value << 12) | (run << 4) | (len + s);
  }
  return fast;
}

export interface EncodeTable {
  code: Uint16Array;
  size: Uint8Array;
}

export function encodeTable(spec: HuffmanSpec): EncodeTable {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let c = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < spec.counts[len - 1]; i++, k++) {
      code[spec.symbols[k]] = c++;
      size[spec.symbols[k]] = len;
    }
    c <<= 1;
  }
  return { code, size };
}

/**
 * `spec` with `extra` symbols added as 16-bit codes in the code space it
 * leaves unused, every existing code unchanged (canonical codes are handed
 * out in order of length, and these come last); null when too little is left
 * (the all-ones code stays unused, as T.81 requires). Bits coded with `spec`
 * decode the same with the result.
 */
export function withExtraCodes(spec: HuffmanSpec, extra: number[]): HuffmanSpec | null {
  let next = 0;
  for (let len = 1; len <= 16; len++) {
    next += spec.counts[len - 1];
    if (len < 16) next <<= 1;
  }
  if (next + extra.length > 0xffff || spec.counts[15] + extra.length > 255) return null;
  const counts = spec.counts.slice();
  counts[15] += extra.length;
  return { counts, symbols: Uint8Array.from([...spec.symbols, ...extra]) };
}

/** The optimal length-limited (16 bits) code for symbol frequencies, libjpeg's algorithm. */
export function optimalSpec(freqIn: ArrayLike<number>): HuffmanSpec {
  const freq = new Float64Array(257);
  for (let i = 0; i < 256; i++) freq[i] = freqIn[i] ?? 0;
  freq[256] = 1; // reserved symbol: no real code is all ones
  const codesize = new Int32Array(257);
  const others = new Int32Array(257).fill(-1);
  for (;;) {
    let c1 = -1;
    let v = Infinity;
    for (let i = 0; i <= 256; i++)
      if (freq[i] && freq[i] <= v) {
        v = freq[i];
        c1 = i;
      }
    let c2 = -1;
    v = Infinity;
    for (let i = 0; i <= 256; i++)
      if (freq[i] && freq[i] <= v && i !== c1) {
        v = freq[i];
        c2 = i;
      }
    if (c2 < 0) break;
    freq[c1] += freq[c2];
    freq[c2] = 0;
    codesize[c1]++;
    while (others[c1] >= 0) {
      c1 = others[c1];
      codesize[c1]++;
    }
    others[c1] = c2;
    codesize[c2]++;
    while (others[c2] >= 0) {
      c2 = others[c2];
      codesize[c2]++;
    }
  }
  const bits = new Int32Array(33);
  for (let i = 0; i <= 256; i++) if (codesize[i]) bits[codesize[i]]++;
  for (let i = 32; i > 16; i--) {
    while (bits[i] > 0) {
      let j = i - 2;
      while (bits[j] === 0) j--;
      bits[i] -= 2;
      bits[i - 1]++;
      bits[j + 1] += 2;
      bits[j]--;
    }
  }
  let i = 16;
  while (bits[i] === 0) i--;
  bits[i]--; // drop the reserved symbol
  const counts = new Uint8Array(16);
  for (let l = 1; l <= 16; l++) counts[l - 1] = bits[l];
  const symbols: number[] = [];
  for (let len = 1; len <= 32; len++) for (let s = 0; s < 256; s++) if (codesize[s] === len) symbols.push(s);
  return { counts, symbols: Uint8Array.from(symbols) };
}

// Annex K.3 tables, which every baseline symbol fits.
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));

export const STD_DC_LUMA: HuffmanSpec = { counts: hex("00010501010101010100000000000000"), symbols: hex("000102030405060708090a0b") };
export const STD_DC_CHROMA: HuffmanSpec = { counts: hex("00030101010101010101010000000000"), symbols: hex("000102030405060708090a0b") };
export const STD_AC_LUMA: HuffmanSpec = {
  counts: hex("0002010303020403050504040000017d"),
  symbols: hex(
    "01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa",
  ),
};
export const STD_AC_CHROMA: HuffmanSpec = {
  counts: hex("00020102040403040705040400010277"),
  symbols: hex(
    "000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9fa",
  ),
};
