import { EngineError } from "../../errors";

// A PNG's chunk structure, read without decoding: IHDR, PLTE, tRNS and views
// of the IDAT chunks' data. The acceptance rules follow decodePng (the Rust
// `png` crate 0.17 as jSquash builds it), measured on crafted files:
//  - CRCs are not checked (jSquash sets ignore_checksums), nor is the zlib Adler-32;
//  - IHDR must come first (13 bytes or more), once; PLTE and tRNS at most once each,
//    and for a palette image tRNS only after PLTE; tRNS is refused on grey+alpha
//    and RGBA, and when shorter than a grey (2 bytes) or RGB (6 bytes) key;
//  - a palette tRNS with more entries than PLTE is ignored (not refused);
//  - an empty PLTE is refused; a palette image without PLTE before IDAT is refused;
//  - the image data is the first run of consecutive IDAT chunks, and the file must
//    go on at least to the 8-byte header of the chunk after that run (the crate
//    needs it to know the data has ended); anything after that header is not read.

export interface PngHeader {
  width: number;
  height: number;
  /** 1, 2, 4, 8 or 16. */
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  interlaced: boolean;
}

export interface PngStructure {
  header: PngHeader;
  /** PLTE data (3 bytes an entry), null without one. */
  palette: Uint8Array | null;
  /** tRNS data as stored (palette alphas, or a 16-bit grey / RGB key), null without one. */
  trns: Uint8Array | null;
  /** The IDAT chunks' data, in order (views into the file). */
  idat: Uint8Array[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Samples a pixel: grey 1, RGB 3, palette index 1, grey + alpha 2, RGBA 4. */
export const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function corrupt(reason: string): EngineError {
  return new EngineError("corrupt", `The PNG could not be decoded: ${reason}.`);
}

const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const type4 = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

function readHeader(d: Uint8Array): PngHeader {
  if (d.length < 13) throw corrupt("its IHDR header is too short");
  const width = be32(d, 0);
  const height = be32(d, 4);
  const [bitDepth, colorType, compression, filter, interlace] = [d[8], d[9], d[10], d[11], d[12]];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) throw corrupt(`its dimensions ${width}x${height} are invalid`);
  if (!DEPTHS[colorType]) throw corrupt(`its colour type ${colorType} is invalid`);
  if (!DEPTHS[colorType].includes(bitDepth)) throw corrupt(`bit depth ${bitDepth} is invalid for colour type ${colorType}`);
  if (compression !== 0 || filter !== 0) throw corrupt("its compression or filter method is unknown");
  if (interlace > 1) throw corrupt(`its interlace method ${interlace} is unknown`);
  return { width, height, bitDepth, colorType, interlaced: interlace === 1 };
}

/** Checks the signature and the chunk sequence up to the end of the image data. */
export function readPngStructure(b: Uint8Array): PngStructure {
  if (b.length < 8 || SIGNATURE.some((v, i) => b[i] !== v)) throw corrupt("it does not start with the PNG signature");
  let header: PngHeader | null = null;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  let at = 8;
  for (;;) {
    if (at + 8 > b.length)
      throw corrupt(idat.length ? "the file is truncated after its image data" : header ? "it has no image data (IDAT)" : "the file is truncated");
    const len = be32(b, at);
    const type = type4(b, at + 4);
    if (len > 0x7fffffff) throw corrupt(`chunk ${JSON.stringify(type)} has an invalid length`);
    // The header of the chunk after the IDAT run ends the image data.
    if (idat.length && type !== "IDAT") break;
    if (at + 12 + len > b.length) throw corrupt(`the file is truncated (inside chunk ${JSON.stringify(type)})`);
    const data = b.subarray(at + 8, at + 8 + len);
    at += 12 + len;
    if (!header) {
      if (type !== "IHDR") throw corrupt("its first chunk is not IHDR");
      header = readHeader(data);
      continue;
    }
    switch (type) {
      case "IHDR":
        throw corrupt("it has more than one IHDR chunk");
      case "PLTE":
        if (palette) throw corrupt("it has more than one PLTE chunk");
        if (len === 0) throw corrupt("its palette is empty");
        palette = data;
        break;
      case "tRNS":
        if (trns) throw corrupt("it has more than one tRNS chunk");
        if (header.colorType === 4 || header.colorType === 6) throw corrupt("it has a tRNS chunk on an image that already has alpha");
        if (header.colorType === 3 && !palette) throw corrupt("its tRNS chunk comes before the palette");
        if (header.colorType === 0 && len < 2) throw corrupt("its grey transparency key is too short");
        if (header.colorType === 2 && len < 6) throw corrupt("its RGB transparency key is too short");
        trns = data;
        break;
      case "IDAT":
        if (header.colorType === 3 && !palette) throw corrupt("it is a palette image without a palette");
        idat.push(data);
        break;
      case "IEND":
        throw corrupt("it has no image data (IDAT)");
    }
  }
  if (!header) throw corrupt("it has no IHDR header");
  // The crate drops a palette tRNS with more entries than the palette (decodePng then gives every pixel alpha 255).
  if (header.colorType === 3 && trns && palette && trns.length > Math.floor(palette.length / 3)) trns = null;
  return { header, palette, trns, idat };
}

/** True when every pixel decodes grey (R = G = B): grey types, or a palette of greys. */
export function isGrey(s: PngStructure): boolean {
  const t = s.header.colorType;
  if (t === 0 || t === 4) return true;
  if (t !== 3 || !s.palette) return false;
  const p = s.palette;
  // Indices past the palette decode as black, which is grey too.
  for (let i = 0; i + 2 < p.length; i += 3) if (p[i] !== p[i + 1] || p[i] !== p[i + 2]) return false;
  return true;
}

/** False only when every pixel is certain to decode opaque. */
export function mayHaveAlpha(s: PngStructure): boolean {
  const t = s.header.colorType;
  if (t === 4 || t === 6) return true;
  if (!s.trns) return false;
  // A palette tRNS of only 255s makes nothing transparent.
  if (t === 3) return s.trns.some((a) => a !== 255);
  return true;
}
