import { describe, expect, it } from "vitest";
import { encodeImage } from "../codecs/encode";
import { decodeAvif } from "../codecs/avif";
import { trimCodecHeaps } from "../codecs/emscripten";
import { heapReport } from "../../heap";
import { avifFrameBytes, avifGridBytes } from "./grid-writer";
import type { Pixels } from "../types";
import { aliasedText, photo } from "../../../../test/support/images/fixtures";
import { avifPrimaryType } from "../../../../test/support/images/avif-items";

// One AVIF frame is written up to 1.5 MP, with the screen-content search
// chosen by our rule (screen-content.ts), not aom's: IntraBC's hash tables
// took aom's heap to 123 MB for a 1 MP frame of aliased text and 159 MB for a
// 1.6 MP smooth upscale, where the memory estimate allowed about 55. Each case
// starts from a fresh encoder instance and reads the heap it grew to.

async function encodeFresh(px: Pixels): Promise<{ out: Uint8Array; heap: number }> {
  trimCodecHeaps(0);
  const out = await encodeImage(px, "avif", { quality: 85 });
  return { out, heap: heapReport().av1_still_enc ?? 0 };
}

function meanDiff(a: Pixels, b: Pixels, channels = [0, 1, 2]): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) for (const c of channels) sum += Math.abs(a.data[i + c] - b.data[i + c]);
  return sum / ((a.data.length / 4) * channels.length);
}

/**
 * A smooth gradient of steps one level apart, each 16 x 16 block holding 3 or
 * 4 neighbouring values, as a big upscale makes: aom's own rule counts it as
 * screen content and searches IntraBC; ours does not (its values are too close).
 */
function steps(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = 60 + (((x + y) >> 3) % 120);
      data.set([v, v + 10, v + 20, 255], (y * width + x) * 4);
    }
  return { data, width, height };
}

/** Black glyphs on transparency: the text is in the alpha channel only (a logo or a watermark as PNG). */
function textInAlpha(width: number, height: number): Pixels {
  const px = aliasedText(width, height);
  for (let i = 0; i < px.data.length; i += 4) {
    px.data[i + 3] = 255 - px.data[i];
    px.data[i] = px.data[i + 1] = px.data[i + 2] = 0;
  }
  return px;
}

describe("one AVIF frame or a grid, by screen content", () => {
  // Before: one frame of 1 MP of text took 123 MiB; with the text in the alpha channel (a logo, a
  // watermark) the alpha frame, which aom judged for itself, took 147 MiB, and photo tiles 48 MiB.
  for (const [what, px, channels, bound] of [
    ["1 MP of aliased text", aliasedText(1000, 1000), [0, 1, 2], avifFrameBytes],
    ["1 MP of text in the alpha channel", textInAlpha(1000, 1000), [3], avifFrameBytes],
    ["3.2 MP of text in the alpha channel", textInAlpha(2000, 1600), [3], avifGridBytes],
  ] as const) {
    it(`writes ${what} as a grid of small tiles, its heap within the estimate`, async () => {
      const { out, heap } = await encodeFresh(px);
      expect(avifPrimaryType(out)).toBe("grid");
      expect(heap).toBeLessThanOrEqual(bound(px.width, px.height));
      expect(meanDiff(px, await decodeAvif(out), [...channels])).toBeLessThan(4);
    }, 180_000);
  }

  // A smooth gradient (IntraBC was 150 MB here), small screen content (IntraBC searched), a photo.
  for (const [what, px] of [
    ["a 1.2 MP smooth gradient (IntraBC not searched)", steps(1200, 1000)],
    ["aliased text of 280 x 280, no more than a grid tile (IntraBC searched)", aliasedText(280, 280)],
    ["a 0.8 MP photo", photo(1000, 800)],
  ] as const) {
    it(`writes ${what} as one frame, its heap within the estimate`, async () => {
      const { out, heap } = await encodeFresh(px);
      expect(avifPrimaryType(out)).toBe("av01");
      expect(heap).toBeLessThanOrEqual(avifFrameBytes(px.width, px.height));
      expect(meanDiff(px, await decodeAvif(out))).toBeLessThan(4);
    }, 120_000);
  }
});
