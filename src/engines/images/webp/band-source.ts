import { EngineError } from "../../errors";
import { bandMessage, closeWebpBand, openWebpBand, type WebpBand } from "../codecs/webp-band";
import type { InstanceTicket } from "../codecs/per-call-instance";
import { webpChunks } from "../formats/webp-riff";
import type { BandSource, PixelBand } from "../memory/bands";
import { memoryProbe } from "../memory/probe";
import { WEBP_BAND_HEAP_CAP } from "./band-writer";
import { noteHeap, webpBandProbe } from "./probe";

// A still WebP read as bands of RGBA rows through our libwebp build, into a
// window of rows that is handed over and reused, so no RGBA copy of the
// picture exists. Lossy (VP8, with or without an ALPH plane): a few
// macroblock rows per call. Lossless (VP8L): libwebp's decoder, patched in
// our build to keep a sliding window of ARGB pixels (what its backward
// references can reach, a million pixels back) instead of the whole picture,
// hands rows out 16 at a time as they are finished, and its data goes in as
// the decoder asks for it, so neither the picture nor the file is held whole.
// Animations take their first frame whole (paths.ts).

export interface WebpLayout {
  /** A still whose picture is a VP8 chunk. */
  lossy: boolean;
  /** A still whose picture is a VP8L chunk. */
  lossless: boolean;
  /** It has an ALPH chunk. */
  alpha: boolean;
  /** A VP8L picture that says it uses alpha (its header's alpha_is_used bit). */
  losslessAlpha: boolean;
}

export function webpLayout(b: Uint8Array): WebpLayout {
  const chunks = webpChunks(b);
  const types = chunks.map((c) => c.type);
  const animated = types.includes("ANMF");
  const vp8l = chunks.find((c) => c.type === "VP8L")?.data;
  return {
    lossy: !animated && types.includes("VP8 ") && !vp8l,
    lossless: !animated && !!vp8l && !types.includes("VP8 "),
    alpha: types.includes("ALPH"),
    // After the signature byte: 14 bits of width - 1, 14 of height - 1, then alpha_is_used.
    losslessAlpha: !!vp8l && vp8l.length >= 5 && (vp8l[4] & 0x10) !== 0,
  };
}

const corrupt = (why: string) => new EngineError("corrupt", `The WebP could not be decoded: ${why}.`);

/**
 * The decoder's own failure: running out of its capped heap is a picture too
 * big for a Worker (a lossless file's prefix codes can take tens of MiB when
 * it is pure noise), anything else damaged data.
 */
const failed = (why: string) =>
  why.startsWith("out of memory")
    ? new EngineError(
        "too_large",
        `This WebP needs more than the ${WEBP_BAND_HEAP_CAP / 2 ** 20} MiB a Worker's decoder may use (${why}). Send a smaller image.`,
      )
    : corrupt(why);

/** Rows a band holds by default (bands()' targetPixels). */
const BAND_PIXELS = 1 << 20;

/**
 * libwebp decodes an ALPH plane whole, with its lossless decoder's ARGB
 * buffer: 6.6 bytes a pixel of heap measured (memory-fit.ts counts it when
 * told the file has alpha). Past this the call could not fit a Worker.
 */
export const WEBP_ALPHA_READ_PIXELS = 8_000_000;

/** The whole file into the decoder's heap (a lossy file is small). */
function openLossy(m: WebpBand, input: Uint8Array): undefined {
  const at = m._dec_input(input.length);
  if (!at) throw failed(bandMessage(m));
  m.HEAPU8.set(input, at);
  if (!m._dec_open(input.length)) throw failed(bandMessage(m));
  return undefined;
}

/** The VP8L data a lossless decode starts with: its headers (transforms, prefix codes) usually fit. */
const LOSSLESS_FIRST_BYTES = 1 << 20;

/**
 * A lossless file's VP8L data into the decoder a part at a time, so the heap
 * never holds the file whole: first until its headers decode (a window of
 * 1 MiB, four times more each try), then, whenever dec_rows() stops for more,
 * as much as the decoder's window has room for (webp-band.c: twice what 16
 * rows can read at most). Answers the feeder.
 */
function openLossless(m: WebpBand, input: Uint8Array): () => void {
  const data = webpChunks(input).find((c) => c.type === "VP8L")?.data;
  if (!data) throw corrupt("no VP8L chunk");
  let have = Math.min(data.length, LOSSLESS_FIRST_BYTES);
  for (;;) {
    const at = m._dec_input(have);
    if (!at) throw failed(bandMessage(m));
    m.HEAPU8.set(data.subarray(0, have), at);
    if (m._dec_open_lossless(have, data.length)) break;
    const why = bandMessage(m);
    if (have === data.length || why.startsWith("out of memory")) throw failed(why);
    have = Math.min(data.length, have * 4);
  }
  return () => {
    const at = m._dec_feed();
    const n = Math.min(m._dec_feed_room(), data.length - have);
    m.HEAPU8.set(data.subarray(have, have + n), at);
    m._dec_fed(n);
    have += n;
  };
}

export class WebpBandSource implements BandSource {
  /** Every row must pass through an ALPH plane when the file has one (or a VP8L picture that uses alpha). */
  readonly mayHaveAlpha: boolean;
  private readonly lossless: boolean;

  constructor(
    private readonly input: Uint8Array,
    readonly width: number,
    readonly height: number,
  ) {
    const layout = webpLayout(input);
    this.lossless = layout.lossless;
    this.mayHaveAlpha = layout.lossless ? layout.losslessAlpha : layout.alpha;
    const pixels = width * height;
    // A lossless picture needs no check here: its decoder's heap holds
    // windows of its ARGB pixels and of its data whatever its size (14.3
    // MiB measured for 24 MP), and the prefix codes, which only a file of pure
    // noise makes big enough to fail the heap cap (answered as too large).
    if (!this.lossless && this.mayHaveAlpha && pixels > WEBP_ALPHA_READ_PIXELS) {
      throw new EngineError(
        "too_large",
        `A lossy WebP with transparency can be read up to ${WEBP_ALPHA_READ_PIXELS / 1e6} megapixels in a Worker (libwebp decodes its alpha plane whole); ` +
          `this one is ${(pixels / 1e6).toFixed(1)}. Send a smaller image, or one without transparency.`,
      );
    }
  }

  /**
   * Passes still to come (readFor), and the instance kept between them: each
   * pass decodes the file again in the same heap, which has room for it,
   * where a second instance would sit beside the first until the task ends
   * (44 MiB more for an 8 MP lossless file measured to GIF, two passes).
   */
  private passesLeft = 1;
  private held?: { m: WebpBand; ticket: InstanceTicket };

  readFor(passes: number): void {
    this.passesLeft = passes;
  }

  async *bands(targetPixels = BAND_PIXELS): AsyncGenerator<PixelBand> {
    this.held ??= await openWebpBand();
    const { m, ticket } = this.held;
    const { width, height, input } = this;
    let read = false;
    try {
      // Lossless: the VP8L data goes in as the decoder asks for it (feed).
      const feed = this.lossless ? openLossless(m, input) : openLossy(m, input);
      if (m._dec_width() !== width || m._dec_height() !== height) throw corrupt("the frame size differs from the header's");
      const rows = Math.max(2, Math.floor(targetPixels / width));
      let y = 0;
      for (;;) {
        const n = m._dec_rows(rows);
        if (n < 0) throw failed(bandMessage(m));
        if (n === 0 && m._dec_wants()) {
          feed?.();
          continue;
        }
        if (n === 0) break;
        const from = m._dec_window();
        // A copy: the window is reused by the next call.
        const data = m.HEAPU8.slice(from, from + n * width * 4);
        memoryProbe.sample();
        yield { y, pixels: { data, width, height: n } };
        y += n;
      }
      if (y !== height) throw corrupt(`${y} of ${height} rows`);
      if (this.lossless) webpBandProbe.losslessReads++;
      else webpBandProbe.bandedReads++;
      read = true;
    } finally {
      noteHeap(m.memory.buffer.byteLength);
      m._dec_close();
      // After the last pass, or a pass that did not finish (the call is ending).
      if (--this.passesLeft <= 0 || !read) {
        closeWebpBand(ticket);
        this.held = undefined;
      }
    }
  }
}
