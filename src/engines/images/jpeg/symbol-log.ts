import { type BitReader, type BitWriter, category, extraBits } from "./bit-io";
import type { DecodeTable, EncodeTable } from "./huffman";

// The Huffman symbols of re-quantised blocks, with their extra bits, as the
// first pass of a JPEG compress meets them. Optimal tables need every
// symbol's count before the first can be written; keeping the symbols (one
// 32-bit word each) lets the second pass write them out at once instead of
// decoding and re-quantising the file again. There are far fewer symbols
// than coefficients (each costs at least one bit of output): a 12 MP photo
// at q75 is 1.1 million of them, 4.5 MB, where its coefficients are 36 MB.
// The log grows a page at a time, never copied. A single-scan file is
// logged straight from its Huffman codes (decodedBlock), a progressive one
// from its bands of coefficients (block).
//
// A word: extra bits in 0-15 (at most 11 for 8-bit samples), the symbol in
// 16-23, the table in 24-25 (DC or AC, luma or chroma).

const AC = 1 << 24;
const CHROMA = 1 << 25;

/** A block's symbols at most: DC, 63 AC values and EOB (a run of zeros needs a ZRL only where a value follows it). */
const MAX_BLOCK_SYMBOLS = 65;

/** The four tables a word can name, in the order of its table bits: DC luma, AC luma, DC chroma, AC chroma. */
export type LoggedTables = readonly [EncodeTable, EncodeTable, EncodeTable, EncodeTable];

/**
 * A plane's coefficients four at a time, for lastNonZero: a float64 word is
 * 0 (or -0: the bits of -32768 in its top coefficient, which a Huffman-coded
 * value cannot be) only when all four are 0. Null when the plane does not
 * start on 8 bytes (emptyBand's always do).
 */
export function quadsOf(plane: Int16Array): Float64Array | null {
  return plane.byteOffset % 8 === 0 ? new Float64Array(plane.buffer, plane.byteOffset, plane.length >> 2) : null;
}

/** The zig-zag index of the block's last non-zero coefficient (0 when only DC, or nothing, is). */
function lastNonZero(block: Int16Array, quads: Float64Array | null, at: number): number {
  let last = 63;
  if (quads) {
    const first = at >> 2;
    let q = first + 15;
    while (q > first && quads[q] === 0) q--;
    last = (q - first) * 4 + 3;
  }
  while (last > 0 && block[at + last] === 0) last--;
  return last;
}

/** A value re-quantised by `ratio` (input step over output step), rounding up from `rounding` of a step, symmetric about 0. */
export const requantized = (v: number, ratio: number, rounding: number): number => (v > 0 ? (v * ratio + rounding) | 0 : -((-v * ratio + rounding) | 0));

/** Logs and counts an AC value `q` (not 0) after `run` zeros: ZRLs for each 16, then its symbol. Answers the words' new length. */
function logAc(words: Uint32Array, n: number, acFreq: Float64Array, table: number, run: number, q: number): number {
  for (; run > 15; run -= 16) {
    acFreq[0xf0]++;
    words[n++] = table | AC | (0xf0 << 16);
  }
  const s = category(q);
  const rs = (run << 4) | s;
  acFreq[rs]++;
  words[n++] = table | AC | (rs << 16) | extraBits(q, s);
  return n;
}

/** Words a page of the log holds (1 MiB): the log grows a page at a time, never copied. */
const PAGE_WORDS = 1 << 18;

export class SymbolLog {
  /** Full pages, each cut to the words it holds. */
  private pages: Uint32Array[] = [];
  /** The page being written, and how many of its words are used. */
  private page: Uint32Array;
  private length = 0;
  private allocated: number;
  /** The log passed its cap and was dropped: the caller must code the blocks again. */
  overflowed = false;

  constructor(private readonly capBytes: number) {
    this.page = new Uint32Array(Math.min(PAGE_WORDS, Math.max(MAX_BLOCK_SYMBOLS, capBytes >> 2)));
    this.allocated = this.page.byteLength;
  }

  /**
   * The page to write one more block's symbols into, from `length` on: a
   * new page when this one is full or, once the cap would be passed, the
   * log dropped for a scratch page that each block overwrites (the counts
   * still add up).
   */
  private room(): Uint32Array {
    if (this.length + MAX_BLOCK_SYMBOLS <= this.page.length) return this.page;
    if (this.overflowed || this.allocated + PAGE_WORDS * 4 > this.capBytes) {
      this.overflowed = true;
      this.pages = [];
      this.length = 0;
      if (this.page.length !== MAX_BLOCK_SYMBOLS) this.page = new Uint32Array(MAX_BLOCK_SYMBOLS);
      return this.page;
    }
    this.pages.push(this.page.subarray(0, this.length));
    this.page = new Uint32Array(PAGE_WORDS);
    this.allocated += this.page.byteLength;
    this.length = 0;
    return this.page;
  }

  /**
   * Re-quantises the block at `at` (zig-zag, `ratios` per position: input
   * step over output step), counts its symbols into `dcFreq` / `acFreq` and
   * logs them. `pred` is the previous block's re-quantised DC of the same
   * component; answers this block's. DC rounds at 0.5, AC at `acRounding`.
   */
  block(
    dcFreq: Float64Array,
    acFreq: Float64Array,
    chroma: boolean,
    block: Int16Array,
    quads: Float64Array | null,
    at: number,
    pred: number,
    ratios: Float64Array,
    acRounding: number,
  ): number {
    const words = this.room();
    let n = this.length;
    const table = chroma ? CHROMA : 0;
    const dc = requantized(block[at], ratios[0], 0.5);
    const diff = dc - pred;
    const c = category(diff);
    dcFreq[c]++;
    words[n++] = table | (c << 16) | extraBits(diff, c);
    const last = lastNonZero(block, quads, at);
    let run = 0;
    for (let k = 1; k <= last; k++) {
      const v = block[at + k];
      const q = v === 0 ? 0 : requantized(v, ratios[k], acRounding);
      if (q === 0) run++;
      else {
        n = logAc(words, n, acFreq, table, run, q);
        run = 0;
      }
    }
    // Trailing zeros, in the file or made by re-quantising.
    this.endBlock(words, n, acFreq, table, run > 0 || last < 63);
    return dc;
  }

  /**
   * block() straight from a scan: decodes component `ci`'s next block with
   * `r` (the codes and checks of decodeBlock) and re-quantises and logs each
   * value as it is decoded, so no coefficients are stored or scanned for
   * zeros. `inPreds` holds the decoded DC values (what the scan's
   * differences count from), `outPreds` the re-quantised ones; both move on.
   */
  decodedBlock(
    r: BitReader,
    dcTable: DecodeTable,
    acTable: DecodeTable,
    dcFreq: Float64Array,
    acFreq: Float64Array,
    ci: number,
    inPreds: number[],
    outPreds: number[],
    ratios: Float64Array,
    acRounding: number,
  ): void {
    const words = this.room();
    let n = this.length;
    const table = ci === 0 ? 0 : CHROMA;
    const decoded = inPreds[ci] + r.receiveExtend(r.decode(dcTable));
    inPreds[ci] = decoded;
    // As a band's Int16Array would hold it (a damaged file's DC may not fit).
    const dc = requantized((decoded << 16) >> 16, ratios[0], 0.5);
    const diff = dc - outPreds[ci];
    outPreds[ci] = dc;
    const c = category(diff);
    dcFreq[c]++;
    words[n++] = table | (c << 16) | extraBits(diff, c);
    let run = 0;
    let k = 1;
    while (k < 64) {
      let v: number;
      const fast = r.fastAc(acTable);
      if (fast !== 0) {
        const skip = (fast >> 4) & 15;
        k += skip;
        run += skip;
        v = fast >> 12;
      } else {
        const rs = r.decode(acTable);
        const s = rs & 15;
        if (s === 0) {
          if (rs >> 4 !== 15) break; // EOB
          k += 16;
          run += 16;
          continue;
        }
        k += rs >> 4;
        run += rs >> 4;
        v = r.receiveExtend(s);
      }
      if (k > 63) throw new Error("coefficient index out of range");
      const q = requantized(v, ratios[k], acRounding);
      k++;
      if (q === 0) run++;
      else {
        n = logAc(words, n, acFreq, table, run, q);
        run = 0;
      }
    }
    // Zeros after the last value: an EOB in the file, a ZRL past the end, or values re-quantised to 0.
    this.endBlock(words, n, acFreq, table, run > 0 || k < 64);
  }

  /** A block's end: one EOB when zeros follow its last value; past the cap the scratch page is overwritten by the next block. */
  private endBlock(words: Uint32Array, n: number, acFreq: Float64Array, table: number, trailingZeros: boolean): void {
    if (trailingZeros) {
      acFreq[0]++;
      words[n++] = table | AC;
    }
    this.length = this.overflowed ? 0 : n;
  }

  /** Writes every logged symbol and its extra bits with `tables`. */
  writeTo(w: BitWriter, tables: LoggedTables): void {
    for (const words of [...this.pages, this.page.subarray(0, this.length)]) {
      for (let i = 0; i < words.length; i++) {
        const word = words[i];
        const t = tables[word >>> 24];
        const symbol = (word >>> 16) & 255;
        const s = word & AC ? symbol & 15 : symbol;
        const size = t.size[symbol];
        if (!size) throw new Error(`no Huffman code for symbol ${symbol}`);
        // Code and extra bits in one write when they fit its 24 bits (they nearly always do).
        if (size + s <= 24) w.write((t.code[symbol] << s) | (word & 0xffff), size + s);
        else {
          w.write(t.code[symbol], size);
          w.write(word & 0xffff, s);
        }
      }
    }
  }
}
