import { describe, expect, it } from "vitest";
import { decodeGif } from "../codecs/gif";
import { GifBandSource } from "./band-source";
import { gifOf, photo } from "../../../../test/support/images/fixtures";

// GifBandSource (the first frame LZW-decoded as bands need it) against
// decodeGif (the whole frame's indices at once): same pixels at any band
// size, and the same accept/refuse outcome on damaged and cut files.

async function banded(b: Uint8Array, target: number): Promise<Uint8Array> {
  const s = new GifBandSource(b);
  const out = new Uint8Array(s.width * s.height * 4);
  for await (const band of s.bands(target)) out.set(band.pixels.data, band.y * s.width * 4);
  return out;
}

const outcome = async (run: () => Promise<ArrayLike<number>> | ArrayLike<number>) => {
  try {
    return { pixels: Array.from(await run()) };
  } catch (err) {
    return { error: String(err) };
  }
};

describe("GIF bands", () => {
  const gif = gifOf(photo(300, 200));

  it("gives the whole decode's pixels at any band size", async () => {
    const whole = decodeGif(gif).pixels.data;
    for (const target of [1, 300, 7001, 1 << 19]) expect(await banded(gif, target)).toEqual(whole);
  });

  it("accepts and refuses damaged files like the whole decode", async () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let t = 0; t < 80; t++) {
      const b = gif.slice(0, t % 3 === 0 ? Math.floor(rnd() * gif.length) : gif.length);
      for (let k = 0; k < 3; k++) b[Math.floor(800 + rnd() * (b.length - 800))] = Math.floor(rnd() * 256);
      const whole = await outcome(() => decodeGif(b).pixels.data);
      expect(await outcome(() => banded(b, 5000))).toEqual(whole);
    }
  });
});
