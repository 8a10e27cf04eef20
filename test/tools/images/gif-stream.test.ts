import { GIFEncoder } from "gifenc";
import { describe, expect, it } from "vitest";
import { file, gifOf, photo } from "../../support/images/fixtures";
import { pixelsOf, rgbaAt } from "../../support/images/pixels";
import { fails, ok } from "./client";
import { roadsOf, sampledDiff } from "./roads";
import { sizeOf } from "./inspect";

// Big GIFs whose first frame is stored in row order are read a band of rows
// at a time (road "gif-bands", LZW decoded as the bands need it, no index
// plane): through HTTP, the pixels must be those of the whole decode, frame
// placement, transparency and the frame count note included.

const convert = (bytes: Uint8Array, name: string, target: string) => ok("/api/v1/image/convert", { file: file(bytes, name), target_format: target });

/** Offset of the first image descriptor of a GIF written by gifenc (after its extensions). */
function descriptorAt(gif: Uint8Array): number {
  let at = 13 + (gif[10] & 0x80 ? 3 * (1 << ((gif[10] & 7) + 1)) : 0);
  while (gif[at] === 0x21) {
    at += 2;
    while (gif[at]) at += gif[at] + 1;
    at++;
  }
  return at;
}

/**
 * Two frames of 1900 x 1200 with index 0 transparent, on a 2000 x 1300 canvas
 * at (60, 40): the first frame does not cover the canvas.
 */
function placedAnimation(): Uint8Array {
  const [w, h] = [1900, 1200];
  const palette = Array.from({ length: 256 }, (_, i) => [i, 255 - i, (i * 7) & 255]);
  const frame = (shift: number) => {
    const idx = new Uint8Array(w * h);
    let seed = 99 + shift;
    for (let i = 0; i < idx.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      idx[i] = ((i % w) >> 3) % 8 === 0 ? 0 : ((((i % w) + shift) >> 2) & 255) ^ ((seed >> 16) & 3);
    }
    return idx;
  };
  const enc = GIFEncoder();
  enc.writeFrame(frame(0), w, h, { palette, repeat: 0, transparent: true, transparentIndex: 0 });
  enc.writeFrame(frame(5), w, h, { transparent: true, transparentIndex: 0 });
  enc.finish();
  const gif = enc.bytes();
  const v = new DataView(gif.buffer, gif.byteOffset);
  v.setUint16(6, 2000, true);
  v.setUint16(8, 1300, true);
  const d = descriptorAt(gif);
  v.setUint16(d + 1, 60, true);
  v.setUint16(d + 3, 40, true);
  return gif;
}

describe("GIF input in bands", () => {
  const source = photo(2200, 1200); // 2.6 MP
  const gif = gifOf(source);

  it("decodes a row-order frame as bands need it, the whole decode's pixels, to PNG and WebP", async () => {
    const whole = await pixelsOf(gif);
    let png: Uint8Array = new Uint8Array(0);
    const roads = await roadsOf(async () => {
      png = (await convert(gif, "big.gif", "png")).bytes;
    });
    expect(roads).toEqual({ sources: { "gif-bands": 1 }, sinks: { "png-rows": 1 } });
    expect(sampledDiff(whole, await pixelsOf(png), [0, 1, 2, 3])).toBe(0);
    let webp: Uint8Array = new Uint8Array(0);
    const toWebp = await roadsOf(async () => {
      webp = (await convert(gif, "big.gif", "webp")).bytes;
    });
    expect(toWebp).toEqual({ sources: { "gif-bands": 1 }, sinks: { "webp-planes": 1 } });
    expect(sizeOf(webp)).toEqual([2200, 1200]);
    // A 6x6x6-cube palette over grain, lossy: close on average.
    expect(sampledDiff(whole, await pixelsOf(webp))).toBeLessThan(12);
  });

  it("keeps the frame's place on the canvas, its transparency and the frame count", async () => {
    const anim = placedAnimation();
    const whole = await pixelsOf(anim);
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const roads = await roadsOf(async () => {
      out = await convert(anim, "anim.gif", "png");
    });
    expect(roads.sources).toEqual({ "gif-bands": 1 });
    const got = out as NonNullable<typeof out>;
    expect(got.meta.notes).toContain("animated GIF: the first of 2 frames was used");
    const px = await pixelsOf(got.bytes);
    expect(sampledDiff(whole, px, [0, 1, 2, 3])).toBe(0);
    // Outside the frame, and on its transparent index: clear; inside: opaque.
    expect(rgbaAt(px, 10, 10)[3]).toBe(0);
    expect(rgbaAt(px, 1990, 1290)[3]).toBe(0);
    expect(rgbaAt(px, 65, 700)[3]).toBe(0);
    expect(rgbaAt(px, 124, 700)[3]).toBe(0);
    expect(rgbaAt(px, 200, 700)[3]).toBe(255);
  });

  it("still reads an interlaced frame (its indices decoded whole) on the same road, rows in place", async () => {
    const [w, h] = [1800, 1200];
    const palette = Array.from({ length: 256 }, (_, i) => [i, (i * 3) & 255, 255 - i]);
    const idx = new Uint8Array(w * h);
    for (let i = 0; i < idx.length; i++) idx[i] = ((i % w) + 3 * Math.floor(i / w)) & 255;
    // Rows stored in the four interlace passes (0, 8, 16..; 4, 12..; 2, 6..; 1, 3..), then the descriptor's flag set.
    const stored = new Uint8Array(idx.length);
    let k = 0;
    for (const [start, step] of [
      [0, 8],
      [4, 8],
      [2, 4],
      [1, 2],
    ])
      for (let y = start; y < h; y += step, k++) stored.set(idx.subarray(y * w, (y + 1) * w), k * w);
    const enc = GIFEncoder();
    enc.writeFrame(stored, w, h, { palette });
    enc.finish();
    const gif = enc.bytes();
    gif[descriptorAt(gif) + 9] |= 0x40;
    let out: Uint8Array = new Uint8Array(0);
    const roads = await roadsOf(async () => {
      out = (await convert(gif, "interlaced.gif", "png")).bytes;
    });
    expect(roads.sources).toEqual({ "gif-bands": 1 });
    const px = await pixelsOf(out);
    for (const [x, y] of [
      [0, 0],
      [17, 1],
      [901, 599],
      [1799, 1199],
    ]) {
      const c = idx[y * w + x];
      expect(rgbaAt(px, x, y)).toEqual([c, (c * 3) & 255, 255 - c, 255]);
    }
  });

  it("refuses a frame whose data is cut short with 422, like the whole decode", async () => {
    const cut = gif.slice(0, Math.floor(gif.length / 2));
    expect(await fails("/api/v1/image/convert", { file: file(cut, "cut.gif"), target_format: "png" }, 422)).toBe("invalid_image");
  });
});
