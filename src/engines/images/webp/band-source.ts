import { EngineError } from "../../errors";
import { bandMessage, closeWebpBand, openWebpBand } from "../codecs/webp-band";
import { webpChunks } from "../formats/metadata";
import type { BandSource, PixelBand } from "../memory/bands";
import { memoryProbe } from "../memory/probe";
import { noteHeap, webpBandProbe } from "./probe";

// A lossy WebP (VP8, with or without an ALPH plane) read as bands of RGBA
// rows: our libwebp build decodes a few macroblock rows per call into a
// window of rows that is handed over and reused, so the picture is never
// whole. Lossless VP8L cannot be read this way (its decoder keeps the whole
// ARGB picture by design) and animations take their first frame whole: both
// stay on the whole road (paths.ts).

export interface WebpLayout {
  /** A still whose picture is a VP8 chunk. */
  lossy: boolean;
  /** It has an ALPH chunk. */
  alpha: boolean;
}

export function webpLayout(b: Uint8Array): WebpLayout {
  const types = webpChunks(b).map((c) => c.type);
  const animated = types.includes("ANMF");
  return { lossy: !animated && types.includes("VP8 ") && !types.includes("VP8L"), alpha: types.includes("ALPH") };
}

const corrupt = (why: string) => new EngineError("corrupt", `The WebP could not be decoded: ${why}.`);

/**
 * libwebp decodes an ALPH plane whole, with its lossless decoder's ARGB
 * buffer: 6.6 bytes a pixel of heap measured (memory-fit.ts counts it when
 * told the file has alpha). Past this the call could not fit a Worker.
 */
export const WEBP_ALPHA_READ_PIXELS = 8_000_000;

export class WebpBandSource implements BandSource {
  /** Every row must pass through an ALPH plane when the file has one. */
  readonly mayHaveAlpha: boolean;

  constructor(
    private readonly input: Uint8Array,
    readonly width: number,
    readonly height: number,
  ) {
    this.mayHaveAlpha = webpLayout(input).alpha;
    const pixels = width * height;
    if (this.mayHaveAlpha && pixels > WEBP_ALPHA_READ_PIXELS) {
      throw new EngineError(
        "too_large",
        `A lossy WebP with transparency can be read up to ${WEBP_ALPHA_READ_PIXELS / 1e6} megapixels in a Worker (libwebp decodes its alpha plane whole); ` +
          `this one is ${(pixels / 1e6).toFixed(1)}. Send a smaller image, or one without transparency.`,
      );
    }
  }

  async *bands(targetPixels = 1 << 20): AsyncGenerator<PixelBand> {
    const { m, ref } = await openWebpBand();
    const { width, height, input } = this;
    try {
      const at = m._dec_input(input.length);
      if (!at) throw new Error(`WebP decode failed: ${bandMessage(m)}.`);
      m.HEAPU8.set(input, at);
      if (!m._dec_open(input.length)) throw corrupt(bandMessage(m));
      if (m._dec_width() !== width || m._dec_height() !== height) throw corrupt("the frame size differs from the header's");
      const rows = Math.max(2, Math.floor(targetPixels / width));
      let y = 0;
      for (;;) {
        const n = m._dec_rows(rows);
        if (n < 0) throw corrupt(bandMessage(m));
        if (n === 0) break;
        const from = m._dec_window();
        // A copy: the window is reused by the next call.
        const data = m.HEAPU8.slice(from, from + n * width * 4);
        memoryProbe.sample();
        yield { y, pixels: { data, width, height: n } };
        y += n;
      }
      if (y !== height) throw corrupt(`${y} of ${height} rows`);
      webpBandProbe.bandedReads++;
    } finally {
      noteHeap(m.memory.buffer.byteLength);
      m._dec_close();
      closeWebpBand(ref);
    }
  }
}
