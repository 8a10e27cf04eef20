import { describe, expect, it } from "vitest";
import { loadMupdf, MUPDF_RECYCLE_BYTES, mupdfHeapBytes, mupdfInstanceStats, withMupdfCall } from "../../../src/engines/mupdf/core/loader";
import { watermarkImage } from "../../../src/engines/mupdf/stamps/image-watermark";
import { embeddedImageSizes } from "../../support/pdf-read";
import { makeImage, plainPdf } from "../../support/pdf.mjs";

// Issue #31, found while looking for the suite's largest MuPDF heap: an
// image watermark reserves 8 MiB (its uploads), but MuPDF decoded the whole
// stamp before shrinking it to 1000 px, about 16 bytes a pixel: a 2400 x 1200
// PNG took its heap from 22 to 53 MB, a 16 MP one (60 KB of one colour) to
// 263 MB. The image engine now shrinks it in bands first.

const MiB = 1024 * 1024;

async function freshInstance(): Promise<void> {
  const before = mupdfInstanceStats().recycled;
  await withMupdfCall(async () => {
    const mupdf = await loadMupdf();
    new mupdf.Buffer(new Uint8Array(MUPDF_RECYCLE_BYTES)).destroy();
  });
  expect(mupdfInstanceStats().recycled).toBe(before + 1);
}

describe("image watermark: MuPDF never decodes a big stamp whole", () => {
  for (const [w, h, want] of [
    [2400, 1200, [1000, 500]],
    [4000, 4000, [1000, 1000]],
  ] as const) {
    it(`a ${w} x ${h} stamp is shrunk to ${want.join(" x ")} with MuPDF's heap where it started`, async () => {
      const pdf = await plainPdf(1);
      const stamp = await makeImage("png", w, h, [0, 0, 255]);
      await freshInstance();
      let grew = -1;
      let out: Uint8Array = new Uint8Array(0);
      await withMupdfCall(async () => {
        await loadMupdf();
        const start = mupdfHeapBytes();
        out = (await watermarkImage(pdf, { image: stamp, position: "center", opacity: 0.5, scale: 1, tile: false })).data;
        grew = mupdfHeapBytes() - start;
      });
      console.log(`MuPDF heap, ${w} x ${h} stamp: grew ${(grew / MiB).toFixed(1)} MiB`);
      expect(grew).toBeLessThanOrEqual(8 * MiB);
      expect(await embeddedImageSizes(out)).toContainEqual([...want]);
    }, 120_000);
  }
});
