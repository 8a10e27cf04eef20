import { describe, expect, it } from "vitest";
import { encodeAv1Stills } from "../codecs/av1-still";
import { decodeAvif } from "../codecs/avif";
import { encodeAvifGrid } from "./grid-writer";
import { ScreenContentStats } from "./screen-content";
import type { Pixels } from "../types";
import { photo } from "../../../../test/support/images/fixtures";

// aom's screen-content rule, applied by the grid writer to the picture seen so
// far instead of to each tile (avif/screen-content.ts).

/** `share` of the 16x16 blocks (from the top) hold two grey levels (`dark` and `light`), the rest is grainy. */
function blocks(width: number, height: number, share: number, dark = 20, light = 250): Pixels {
  const px = photo(width, height);
  const blocksWide = width / 16;
  const few = Math.round((width / 16) * (height / 16) * share);
  for (let b = 0; b < few; b++) {
    const bx = (b % blocksWide) * 16,
      by = Math.floor(b / blocksWide) * 16;
    for (let y = by; y < by + 16; y++) {
      for (let x = bx; x < bx + 16; x++) px.data.set((x + y) % 3 ? [light, light, light] : [dark, dark, dark], (y * width + x) * 4);
    }
  }
  return px;
}

describe("screen-content decision", () => {
  it("follows aom's rule: more than a tenth of the area in blocks of 2 to 4 luma values, at least 8 levels apart", () => {
    for (const [share, screen] of [
      [0, false],
      [0.09, false],
      [0.1, false],
      [0.12, true],
      [0.6, true],
    ] as const) {
      const px = blocks(320, 320, share);
      const s = new ScreenContentStats();
      s.add(px.data, px.width, px.height);
      expect(s.isScreenContent(), `share ${share}`).toBe(screen);
    }
    // Few values close together (a smooth photo's gradients) do not count, however many such blocks: aom would count them.
    for (const [dark, light, screen] of [
      [120, 122, false],
      [120, 127, false],
      [120, 128, true],
    ] as const) {
      const px = blocks(320, 320, 0.6, dark, light);
      const s = new ScreenContentStats();
      s.add(px.data, px.width, px.height);
      expect(s.isScreenContent(), `levels ${dark} and ${light}`).toBe(screen);
    }
    // One-colour blocks (flat white) and grain do not count.
    const flat = new ScreenContentStats();
    flat.add(new Uint8Array(64 * 64 * 4).fill(255), 64, 64);
    expect(flat.isScreenContent()).toBe(false);
  });

  it("judges the picture seen so far, not the last band alone", () => {
    const top = blocks(320, 160, 0.5); // screen-like band
    const bottom = photo(320, 480); // photo bands
    const s = new ScreenContentStats();
    s.add(top.data, 320, 160);
    expect(s.isScreenContent()).toBe(true);
    s.add(bottom.data, 320, 480);
    // 50 % of 160 rows over 640 rows: 12.5 %, still above a tenth.
    expect(s.isScreenContent()).toBe(true);
    s.add(photo(320, 320).data, 320, 320);
    expect(s.isScreenContent()).toBe(false);
  });

  it("is imposed on the encoder: on and off give different files, unset lets aom decide", async () => {
    const px = blocks(256, 256, 0.8);
    const [auto] = await encodeAv1Stills(px, ["color-420"], 9, 6);
    const [on] = await encodeAv1Stills(px, ["color-420"], 9, 6, true);
    const [off] = await encodeAv1Stills(px, ["color-420"], 9, 6, false);
    // aom itself calls this picture screen content, as our rule does.
    expect(Buffer.from(auto).equals(Buffer.from(on))).toBe(true);
    expect(Buffer.from(off).equals(Buffer.from(on))).toBe(false);
    // Palette and IntraBC pay off on two-level blocks.
    expect(on.length).toBeLessThan(off.length);
  });

  it("gives a screen-like grid its tools and still decodes it exactly enough", async () => {
    const px = blocks(640, 640, 0.9);
    const out = await encodeAvifGrid(px, 85);
    const back = await decodeAvif(out);
    let worst = 0;
    for (let i = 0; i < px.data.length; i += 4) worst = Math.max(worst, Math.abs(px.data[i] - back.data[i]));
    expect([back.width, back.height]).toEqual([640, 640]);
    expect(worst).toBeLessThan(60);
  });
});
