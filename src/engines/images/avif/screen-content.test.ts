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
  it("turns palette on by aom's rule (over a tenth of the area in blocks of 2 to 4 luma values), IntraBC when they lie 8 levels apart", () => {
    const toolsOf = (px: Pixels) => {
      const s = new ScreenContentStats();
      s.add(px.data, px.width, px.height);
      return s.tools();
    };
    for (const [share, tools] of [
      [0, "off"],
      [0.09, "off"],
      [0.1, "off"],
      [0.12, "all"],
      [0.6, "all"],
    ] as const) {
      expect(toolsOf(blocks(320, 320, share)), `share ${share}`).toBe(tools);
    }
    // Few values close together (a smooth picture's gradients) count for palette, as aom counts them, not for IntraBC.
    for (const [dark, light, tools] of [
      [120, 122, "palette"],
      [120, 127, "palette"],
      [120, 128, "all"],
    ] as const) {
      expect(toolsOf(blocks(320, 320, 0.6, dark, light)), `levels ${dark} and ${light}`).toBe(tools);
    }
    expect(toolsOf(blocks(320, 320, 0.09, 120, 122)), "close levels under a tenth").toBe("off");
    // One-colour blocks (flat white) and grain do not count.
    expect(toolsOf({ data: new Uint8Array(64 * 64 * 4).fill(255), width: 64, height: 64 })).toBe("off");
    expect(toolsOf(photo(320, 320))).toBe("off");
  });

  it("judges the picture seen so far, not the last band alone", () => {
    const top = blocks(320, 160, 0.5); // screen-like band
    const bottom = photo(320, 480); // photo bands
    const s = new ScreenContentStats();
    s.add(top.data, 320, 160);
    expect(s.tools()).toBe("all");
    s.add(bottom.data, 320, 480);
    // 50 % of 160 rows over 640 rows: 12.5 %, still above a tenth.
    expect(s.tools()).toBe("all");
    s.add(photo(320, 320).data, 320, 320);
    expect(s.tools()).toBe("off");
  });

  it("is imposed on the encoder: each level gives another file, unset lets aom decide", async () => {
    const px = blocks(256, 256, 0.8);
    const [auto] = await encodeAv1Stills(px, ["color-420"], 9, 6);
    const files = await Promise.all(
      (["off", "palette", "all"] as const).map(async (screenTools) => (await encodeAv1Stills(px, ["color-420"], 9, 6, { screenTools }))[0]),
    );
    const [off, palette, all] = files.map((f) => Buffer.from(f));
    // aom itself gives this picture every tool, as our rule does.
    expect(Buffer.from(auto).equals(all)).toBe(true);
    expect(off.equals(palette) || palette.equals(all)).toBe(false);
    // Palette and IntraBC pay off on two-level blocks, IntraBC most.
    expect(all.length).toBeLessThan(palette.length);
    expect(palette.length).toBeLessThan(off.length);
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
