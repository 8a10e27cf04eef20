import { EngineError } from "../../errors";
import { trimCodecHeaps } from "../codecs/emscripten";
import { bandMessage, closeWebpBand, openWebpBand, type WebpBand } from "../codecs/webp-band";
import type { InstanceTicket } from "../codecs/per-call-instance";
import { withWebpIcc } from "../formats/metadata";
import type { RowSink, YcbcrCoefficients } from "../memory/bands";
import { BAND_PIXELS } from "../memory/budget";
import { memoryProbe } from "../memory/probe";
import { swapsAxes } from "../pixels/orientation";
import type { Pixels } from "../types";
import { noteHeap, webpBandProbe } from "./probe";

// Lossy WebP written without the picture ever being whole as RGBA: rows come
// in stored order and go straight into libwebp's YUV 4:2:0 planes in our WASM
// heap (1.5 bytes a pixel, plus an alpha plane from the first translucent
// pixel on), already turned upright, then libwebp encodes the planes.
// Settings are libwebp's defaults (method 4, as cwebp and jSquash's encoder
// use), so the file is byte-identical to `cwebp -q <quality>` of the same
// pixels (unless the low-memory fallback below was needed); with
// transparency the VP8 frame is, and the ALPH chunk is our own coder's.
// A 4:2:0 or 4:2:2 YCbCr JPEG fills the planes with its own samples instead
// (writeYcbcr): no chroma upsampling, RGB and chroma averaging in between,
// so the file differs from cwebp's (cwebp decodes the JPEG to RGB first).

/**
 * build.sh caps each instance's heap here (-sMAXIMUM_MEMORY): the most one
 * call's libwebp can hold, whatever the picture.
 */
export const WEBP_BAND_HEAP_CAP = 72 * 1024 * 1024;
/**
 * libwebp's token buffer (what lets method 4 size its output in one pass, as
 * cwebp does) is used at every size; on photos it costs 1 to 3 bytes a pixel
 * besides the planes' 1.5. Past 24 MiB of them, token pages go into the rows
 * of the planes already encoded (libwebp-token-pages.patch), so the heap
 * stays well under the cap (66 MiB at 24 MP) and the file is still cwebp's,
 * byte for byte, up to about 2.4 bytes of tokens a pixel. Only where that
 * cannot be done (no row spent yet, or a picture so noisy that partition 0
 * may overflow, when libwebp starts its pass over and reads the pixels
 * again) does the C side encode the planes again in libwebp's low-memory
 * mode (0.3% larger, twice the work). Measured in Node: 12 MP of heavy
 * grain 53 MiB with tokens; 24 MP of heavy grain (46 MB of tokens) 66 MiB,
 * where it used to fill the cap and fall back (4.5 s from JPEG to WebP,
 * against 8.1 s). Up to this size the estimate is the measured 4.6 bytes a
 * pixel; above it, the cap.
 */
export const WEBP_TOKENS_PIXELS = 12_600_000;
/**
 * The largest WebP written in a Worker: under the heap cap, the planes (1.5
 * bytes a pixel) and libwebp's low-memory encoder (about 0.6 more: 24 MP
 * took 50 MiB) fit up to about 34 MP; 30 keeps a margin.
 */
export const WEBP_PLANES_MAX_PIXELS = 30_000_000;
/**
 * Pictures with translucent pixels are written up to this size. The alpha
 * plane (1 byte a pixel, made at the first translucent pixel, so an opaque
 * RGBA source is not limited) fills beside the YUV planes: 2.5 bytes a pixel
 * while rows arrive, beside a reader of up to 24 MiB (PNG, TIFF: 20 MP is
 * 76 MiB of the call's 80). Then our C side compresses the plane straight
 * into an ALPH chunk (webp-band.c: no ARGB picture, as libwebp's own alpha
 * coder needed, 14 bytes a pixel even at its lowest effort) and frees it
 * before the frame is encoded as an opaque one; that step holds at most one
 * more byte a pixel (noise, stored raw): 3.5 bytes a pixel, 67 MiB at 20 MP,
 * under the cap. Measured: a 24 MP cutout photo peaked at 59.4 MiB; a
 * 20 MP one from PNG at 79 MB live in all (estimate 75.8).
 */
export const WEBP_ALPHA_PIXELS = 20_000_000;
/**
 * What always fits with transparency: pure noise in colour and alpha (the
 * alpha stored raw, held beside the planes while libwebp's low-memory
 * encoder writes a frame of 0.6 bytes a pixel) fits the heap cap at 14.2 MP
 * and not at 20. Past this, a picture that close to noise is refused after
 * the attempt, with this figure.
 */
const WEBP_ALPHA_ALWAYS_PIXELS = 14_000_000;
/**
 * The same for opaque pictures: uniform random noise at quality 100 (a
 * 15 MB file) was written at 13.8 MP (low-memory mode, 60 MiB of heap);
 * the photo of heavy noise at quality 95 did not fit at 16 MP (its 12 MB
 * frame and the bit writer's copy pass the heap cap).
 */
const WEBP_OPAQUE_ALWAYS_PIXELS = 13_800_000;
/** The alpha plane's prediction filter: -1 lets the C side pick the one whose stream is smallest (or none for 16 levels or fewer, as libwebp does). */
const ALPHA_FILTER = -1;

const METHOD = 4;

export class WebpBandWriter implements RowSink {
  private instance?: Promise<{ m: WebpBand; ticket: InstanceTicket }>;
  private rows = 0;

  /** `width` x `height` in stored order; `orientation` is applied as rows are placed. */
  constructor(
    readonly width: number,
    readonly height: number,
    private readonly quality: number,
    private readonly meta: { orientation: number; alpha: boolean; icc?: Uint8Array },
  ) {
    // Before any row is decoded (openSink runs before the first band).
    if (width * height > WEBP_PLANES_MAX_PIXELS) {
      throw new EngineError(
        "too_large",
        `A WebP can be written up to ${WEBP_PLANES_MAX_PIXELS / 1e6} megapixels in a Worker; this one would be ${((width * height) / 1e6).toFixed(1)}. Ask for a smaller size, or another format.`,
      );
    }
  }

  private open(): Promise<{ m: WebpBand; ticket: InstanceTicket }> {
    this.instance ??= openWebpBand().then((it) => {
      if (!it.m._enc_begin(this.width, this.height, this.meta.orientation, this.meta.alpha ? 1 : 0)) {
        const why = bandMessage(it.m);
        closeWebpBand(it.ticket);
        throw new Error(`WebP encode failed: ${why}.`);
      }
      return it;
    });
    return this.instance;
  }

  async write(rows: Pixels): Promise<void> {
    try {
      await this.place(rows);
    } catch (err) {
      // The call ends here: its instance goes now, not with the garbage.
      await this.close();
      throw err;
    }
  }

  private async close(): Promise<void> {
    const it = await this.instance?.catch(() => undefined);
    this.instance = undefined;
    if (!it) return;
    it.m._enc_release();
    closeWebpBand(it.ticket);
  }

  /**
   * The planes from a 4:2:0 or 4:2:2 JPEG's coefficients, dequantised and
   * inverse transformed in our C (webp-band.c), each component at its own
   * resolution, which is the planes' (4:2:2 chroma has two rows averaged
   * into one on the way). Declined (false) for a source that may
   * have alpha, or when a flipped side is odd: there the JPEG's chroma
   * samples would fall half a sample off WebP's, and rows are exact.
   */
  async writeYcbcr(source: YcbcrCoefficients): Promise<boolean> {
    const { orientation, alpha } = this.meta;
    const { g } = source;
    // 4:2:2 (luma 2x1): Cb and Cr have every row, not half of them.
    const fullHeightChroma = g.components[0].v === 1 ? 1 : 0;
    if (alpha || this.rows > 0 || g.width !== this.width || g.height !== this.height) return false;
    if (orientation !== 1 && (this.width % 2 || this.height % 2)) return false;
    try {
      const { m } = await this.open();
      for (const band of source.bands(BAND_PIXELS)) {
        for (let ci = 0; ci < 3; ci++) {
          const c = g.components[ci];
          const blocks = band.mcuRows * c.v * c.bw;
          const at = m._enc_coef_buffer(blocks);
          if (!at) throw new Error(`WebP encode failed: ${bandMessage(m)}.`);
          // Read the heap after the allocation: a grown heap is a new buffer.
          const heap = new Int16Array(m.HEAPU8.buffer, at, 64 * (blocks + 1));
          heap.set(source.steps[ci]);
          heap.set(band.planes[ci].subarray(0, 64 * blocks), 64);
          if (!m._enc_coef_blocks(ci, band.firstMcuRow * c.v, band.mcuRows * c.v, c.bw, fullHeightChroma))
            throw new Error(`WebP encode failed: ${bandMessage(m)}.`);
        }
        this.rows = Math.min(this.height, (band.firstMcuRow + band.mcuRows) * g.mcuH);
        memoryProbe.sample();
      }
      m._enc_coef_done(fullHeightChroma);
    } catch (err) {
      await this.close();
      throw err;
    }
    webpBandProbe.ycbcrWrites++;
    return true;
  }

  private async place(rows: Pixels): Promise<void> {
    const { m } = await this.open();
    const rowBytes = this.width * 4;
    const at = m._enc_buffer(rows.height);
    if (!at) throw new Error(`WebP encode failed: ${bandMessage(m)}.`);
    // Read HEAPU8 after the allocation: a grown heap is a new buffer.
    m.HEAPU8.set(rows.data.subarray(0, rows.height * rowBytes), at);
    if (!m._enc_rows(rows.height)) throw new Error(`WebP encode failed: ${bandMessage(m)}.`);
    this.rows += rows.height;
    const pixels = this.width * this.height;
    if (pixels > WEBP_ALPHA_PIXELS && m._enc_translucent()) {
      throw new EngineError(
        "too_large",
        `A WebP with transparency can be written up to ${WEBP_ALPHA_PIXELS / 1e6} megapixels in a Worker (its alpha plane is held whole beside the picture); ` +
          `this one would be ${(pixels / 1e6).toFixed(1)}. Send a smaller image, or convert to PNG or AVIF.`,
      );
    }
    memoryProbe.sample();
  }

  async finish(): Promise<Uint8Array> {
    const { m } = await this.open();
    try {
      if (this.rows !== this.height) throw new Error(`WebP band writer got ${this.rows} of ${this.height} rows`);
      // The reader's codec heaps (MozJPEG's decoder) are done with: dropped
      // before libwebp grows ours, so the two never coexist (memory-fit.ts).
      trimCodecHeaps(0);
      const n = m._enc_finish(this.quality, METHOD, 0, ALPHA_FILTER);
      memoryProbe.sample();
      noteHeap(m.memory.buffer.byteLength);
      if (n < 0) {
        const why = bandMessage(m);
        const pixels = this.width * this.height;
        if (why.startsWith("out of memory")) {
          const translucent = m._enc_translucent() !== 0;
          throw new EngineError(
            "too_large",
            `This ${(pixels / 1e6).toFixed(1)} MP picture did not fit a Worker's WebP encoder: its detail${translucent ? " and transparency are" : " is"} too close to noise to compress at this size. ` +
              `${translucent ? "WebP with transparency" : "An opaque WebP"} is always written up to ${(translucent ? WEBP_ALPHA_ALWAYS_PIXELS : WEBP_OPAQUE_ALWAYS_PIXELS) / 1e6} megapixels. Ask for a smaller size, a lower quality, or another format.`,
          );
        }
        throw new Error(`WebP encode failed: ${why}.`);
      }
      const out = m.HEAPU8.slice(m._enc_output(), m._enc_output() + n);
      webpBandProbe.planeWrites++;
      const road = m._enc_token_road();
      if (road >= 1) webpBandProbe.spentRowWrites++;
      if (road === 2) webpBandProbe.directRowWrites++;
      if (m._enc_used_low_memory()) webpBandProbe.lowMemoryWrites++;
      const [w, h] = swapsAxes(this.meta.orientation) ? [this.height, this.width] : [this.width, this.height];
      return withWebpIcc(out, this.meta.icc, w, h);
    } finally {
      await this.close();
    }
  }
}
