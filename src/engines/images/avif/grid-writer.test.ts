import { describe, expect, it } from "vitest";
import { AVIF_GRID_TILE, AVIF_PHOTO_TILE, AvifGridWriter, avifGridBytes, encodeAvifGrid, gridLayout, type AvifGridOptions } from "./grid-writer";
import { ascii, u16be, u32be } from "../util/bytes";
import { decodeAvif, encodeAvif } from "../codecs/avif";
import { readBoxes, readHeifMeta, type Box } from "../formats/isobmff";
import type { Pixels } from "../types";
import { aliasedText, photo } from "../../../../test/support/images/fixtures";
import { pixelsOf } from "../../../../test/support/images/pixels";
import { avifInfo } from "../formats/avif-container";
import { applyOrientation } from "../pixels/orientation";
import { encodeAv1Stills, qualityToQuantizer } from "../codecs/av1-still";

// Grid AVIF writer: tiles encoded one by one by our AV1 still encoder, one
// container around them. Checked by decoding with libavif (our decodeAvif) and by reading the
// container back box by box, independently of the writer's own parser.

interface Item {
  id: number;
  type: string;
  hidden: boolean;
}

/** The container, read with isobmff.ts plus a few lines here (not with grid-container.ts). */
function container(b: Uint8Array) {
  const m = readHeifMeta(b);
  if (!m) throw new Error("no meta");
  const find = (t: string) => m.boxes.find((x) => x.type === t);
  const iinf = find("iinf")!;
  const items: Item[] = [];
  for (const infe of readBoxes(b, iinf.body + 2, iinf.end)) {
    items.push({ id: u16be(b, infe.body), type: ascii(b, infe.body + 4, 4), hidden: (b[infe.body - 1] & 1) === 1 });
  }
  const refs: { type: string; from: number; to: number[] }[] = [];
  const iref = find("iref");
  if (iref) {
    for (const r of readBoxes(b, iref.body, iref.end)) {
      const n = u16be(b, r.body + 2);
      refs.push({ type: r.type, from: u16be(b, r.body), to: Array.from({ length: n }, (_, k) => u16be(b, r.body + 4 + 2 * k)) });
    }
  }
  const props = (ps: Box[]) => ps.map((p) => p.type);
  return { m, items, refs, primaryProps: props(m.properties.map((p) => p.box)), brands: ascii(b, 8, 4) };
}

/** An item's bytes (in mdat, construction method 0). */
function itemBytes(b: Uint8Array, id: number): Uint8Array {
  const m = readHeifMeta(b)!;
  // iloc v0, offset/length 4 bytes, no base offset: [id u16][dref u16][count u16][offset u32][length u32]
  const iloc = m.iloc;
  expect(b[iloc.body]).toBe(0x44);
  const count = u16be(b, iloc.body + 2);
  for (let e = 0, at = iloc.body + 4; e < count; e++, at += 14) {
    if (u16be(b, at) !== id) continue;
    const off = u32be(b, at + 6);
    return b.subarray(off, off + u32be(b, at + 10));
  }
  throw new Error(`item ${id} not in iloc`);
}

/** Grid descriptor of the primary item. */
function gridOf(b: Uint8Array) {
  const g = itemBytes(b, readHeifMeta(b)!.primary);
  const wide = g[1] & 1;
  return {
    rows: g[2] + 1,
    columns: g[3] + 1,
    width: wide ? u32be(g, 4) : u16be(g, 4),
    height: wide ? u32be(g, 8) : u16be(g, 6),
  };
}

/** Mean absolute difference over the channels in `channels`, on rows/columns picked by `take`. */
/** A grid written in one band, with the layout the writer chose. */
async function gridWith(input: Pixels, quality: number, opts: AvifGridOptions = {}) {
  const w = new AvifGridWriter(input.width, input.height, quality, opts);
  await w.write(input);
  const out = await w.finish();
  return { out, layout: w.layout, photoTiles: w.photoTiles };
}

function mad(a: Pixels, b: Pixels, take: (x: number, y: number) => boolean, channels = [0, 1, 2]): number {
  let sum = 0,
    n = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!take(x, y)) continue;
      const o = (y * a.width + x) * 4;
      for (const c of channels) sum += Math.abs(a.data[o + c] - b.data[o + c]);
      n += channels.length;
    }
  }
  return sum / n;
}

/** Error on the pixels either side of every tile boundary vs everywhere. */
function seams(input: Pixels, out: Pixels, tileW: number, tileH: number) {
  const nearEdge = (v: number, t: number) => v % t === 0 || v % t === t - 1;
  return {
    all: mad(input, out, () => true),
    cols: mad(input, out, (x) => x > 0 && nearEdge(x, tileW)),
    rows: mad(input, out, (_, y) => y > 0 && nearEdge(y, tileH)),
  };
}

describe("grid AVIF writer", () => {
  it("lays out equal even tiles of at least 64 px that cover the picture, the last ones cropped", () => {
    for (const [w, h] of [
      [2500, 1300],
      [1999, 1001],
      [513, 512],
      [64, 64],
      [1, 1],
      [100, 3],
      [6000, 4000],
      [40000, 600],
    ]) {
      const l = gridLayout(w, h);
      expect((l.tileWidth % 2) + (l.tileHeight % 2)).toBe(0);
      expect(Math.min(l.tileWidth, l.tileHeight)).toBeGreaterThanOrEqual(64);
      expect(Math.max(l.tileWidth, l.tileHeight)).toBeLessThanOrEqual(AVIF_GRID_TILE);
      expect((l.columns - 1) * l.tileWidth).toBeLessThan(w);
      expect(l.columns * l.tileWidth).toBeGreaterThanOrEqual(w);
      expect((l.rows - 1) * l.tileHeight).toBeLessThan(h);
      expect(l.rows * l.tileHeight).toBeGreaterThanOrEqual(h);
      // The row of tiles the writer buffers stays bounded however wide the picture.
      expect(l.tileHeight * w * 4).toBeLessThanOrEqual(Math.max(16 << 20, 64 * w * 4));
    }
    expect(gridLayout(2500, 1300)).toMatchObject({ columns: 9, rows: 5, tileWidth: 278, tileHeight: 260 });
    // Memory estimate: bounded by the tile, not the picture (but for the compressed tiles it keeps).
    expect(avifGridBytes(6000, 4000)).toBeLessThan(80 << 20);
    expect(avifGridBytes(12000, 8000) - avifGridBytes(6000, 4000)).toBeLessThan(72e6 * 0.5 + (10 << 20));
  });

  it("writes a grid (primary item 'grid', hidden av01 tiles in raster order) that libavif decodes to the exact size, no seams", async () => {
    const input = photo(2500, 1300);
    const { out, layout, photoTiles } = await gridWith(input, 85);
    // A photo gets the big tiles (5 x 3 of 500 x 434), a screenshot the small ones (below).
    expect(photoTiles).toBe(true);
    expect(layout).toMatchObject({ columns: 5, rows: 3, tileWidth: 500, tileHeight: 434 });
    const c = container(out);
    expect(c.brands).toBe("avif");
    const primary = c.items.find((i) => i.id === c.m.primary)!;
    expect(primary).toMatchObject({ type: "grid", hidden: false });
    expect(gridOf(out)).toEqual({ rows: layout.rows, columns: layout.columns, width: 2500, height: 1300 });
    const dimg = c.refs.find((r) => r.type === "dimg" && r.from === c.m.primary)!;
    expect(dimg.to).toHaveLength(layout.rows * layout.columns);
    for (const id of dimg.to) expect(c.items.find((i) => i.id === id)).toMatchObject({ type: "av01", hidden: true });
    // Raster order, and the same order as in iinf (older libavif, jSquash's included, goes by
    // item order rather than by dimg order, so both must agree for every reader).
    const inInfe = c.items.filter((i) => dimg.to.includes(i.id)).map((i) => i.id);
    expect(dimg.to).toEqual(inInfe);
    expect(dimg.to).toEqual([...dimg.to].sort((a, b) => a - b));
    // The grid carries the output size, pixi and colour; the codec configuration is on the tiles.
    expect(c.primaryProps).toEqual(expect.arrayContaining(["ispe", "pixi", "colr"]));
    expect(c.primaryProps).not.toContain("av1C");
    const ispe = c.m.properties.find((p) => p.box.type === "ispe")!.box;
    expect([u32be(out, ispe.body), u32be(out, ispe.body + 4)]).toEqual([2500, 1300]);
    // Tiles share their property boxes: ipco holds a handful, not one set per tile.
    expect(readBoxes(out, c.m.ipco.body, c.m.ipco.end).length).toBeLessThanOrEqual(6);

    const decoded = await decodeAvif(out);
    expect([decoded.width, decoded.height]).toEqual([2500, 1300]);
    const s = seams(input, decoded, layout.tileWidth, layout.tileHeight);
    expect(s.all).toBeLessThan(4);
    expect(s.cols).toBeLessThan(s.all * 1.5 + 0.5);
    expect(s.rows).toBeLessThan(s.all * 1.5 + 0.5);
    // Close to what the whole-frame encoder does with the same picture.
    const whole = await decodeAvif(await encodeAvif(input, 85));
    expect(s.all).toBeLessThan(mad(input, whole, () => true) + 0.5);
  });

  it("gives odd sizes 4:4:4 tiles (MIAF forbids odd 4:2:0 grids) and decodes them to the exact size", async () => {
    const input = photo(1999, 1001);
    const { out, layout } = await gridWith(input, 85);
    const g = gridOf(out);
    expect([g.width, g.height]).toEqual([1999, 1001]);
    // av1C byte 2: high_bitdepth, twelve_bit, monochrome, subsampling_x, subsampling_y, ...
    const c = container(out);
    const av1C = readBoxes(out, c.m.ipco.body, c.m.ipco.end).find((x) => x.type === "av1C")!;
    expect(out[av1C.start + 10] & 0x0c).toBe(0);
    const decoded = await decodeAvif(out);
    expect([decoded.width, decoded.height]).toEqual([1999, 1001]);
    const s = seams(input, decoded, layout.tileWidth, layout.tileHeight);
    expect(s.all).toBeLessThan(4);
    expect(s.cols).toBeLessThan(s.all * 1.5 + 0.5);
    expect(s.rows).toBeLessThan(s.all * 1.5 + 0.5);
  }, 120_000);

  it("keeps alpha on every tile when asked (alpha grid with auxl and its own dimg), opaque tiles included", async () => {
    // photo alpha: 0 on the left quarter, 128 up to the middle, 255 on the right half (whole opaque tiles there).
    const input = photo(1300, 600, { alpha: true });
    const out = await encodeAvifGrid(input, 85, { alpha: true });
    const c = container(out);
    const auxl = c.refs.find((r) => r.type === "auxl")!;
    expect(auxl.to).toEqual([c.m.primary]);
    expect(c.items.find((i) => i.id === auxl.from)).toMatchObject({ type: "grid", hidden: false });
    const colorTiles = c.refs.find((r) => r.type === "dimg" && r.from === c.m.primary)!.to;
    const alphaTiles = c.refs.find((r) => r.type === "dimg" && r.from === auxl.from)!.to;
    expect(alphaTiles).toHaveLength(colorTiles.length);
    const decoded = await decodeAvif(out);
    expect([decoded.width, decoded.height]).toEqual([1300, 600]);
    expect(mad(input, decoded, () => true, [3])).toBeLessThan(2);
    // Opaque tiles (from x = 780: tiles of 260) stay exactly opaque; near the 128/255 edge, nearly.
    let minNear = 255,
      minOpaqueTiles = 255;
    for (let y = 0; y < 600; y++)
      for (let x = 700; x < 1300; x++) {
        const a = decoded.data[(y * 1300 + x) * 4 + 3];
        if (x < 780) minNear = Math.min(minNear, a);
        else minOpaqueTiles = Math.min(minOpaqueTiles, a);
      }
    expect(gridLayout(1300, 600).tileWidth).toBe(260);
    expect(minOpaqueTiles).toBe(255);
    expect(minNear).toBeGreaterThanOrEqual(250);
    const a = decoded.data[(300 * 1300 + 10) * 4 + 3],
      half = decoded.data[(300 * 1300 + 500) * 4 + 3];
    expect(a).toBeLessThan(5);
    expect(Math.abs(half - 128)).toBeLessThan(6);
  }, 120_000);

  it("ignores the alpha channel unless asked: no alpha item, opaque output", async () => {
    const input = photo(700, 300, { alpha: true });
    const out = await encodeAvifGrid(input, 85);
    const c = container(out);
    expect(c.refs.some((r) => r.type === "auxl")).toBe(false);
    expect(c.items.every((i) => i.type === "grid" || i.type === "av01")).toBe(true);
    const decoded = await decodeAvif(out);
    expect(mad({ ...input, data: input.data.map((v, i) => (i % 4 === 3 ? 255 : v)) }, decoded, () => true, [3])).toBe(0);
  }, 120_000);

  it("encodes each tile as its whole picture would be searched (the picture's shorter side), not as a thumbnail", async () => {
    const input = photo(1000, 500); // 4 x 2 tiles of 250 x 250 (the small tiles, as for a screenshot)
    const out = await encodeAvifGrid(input, 85, { photoTile: 0 });
    const c = container(out);
    const firstTile = c.refs.find((r) => r.type === "dimg" && r.from === c.m.primary)!.to[0];
    const tile: Pixels = { data: new Uint8Array(250 * 250 * 4), width: 250, height: 250 };
    for (let y = 0; y < 250; y++) tile.data.set(input.data.subarray(y * 1000 * 4, (y * 1000 + 250) * 4), y * 250 * 4);
    const encode = async (pictureSide: number) =>
      (await encodeAv1Stills(tile, ["color-420"], qualityToQuantizer(85), 6, { screenTools: "off", pictureSide }))[0];
    const written = Buffer.from(itemBytes(out, firstTile));
    expect(written.equals(Buffer.from(await encode(500)))).toBe(true);
    expect(written.equals(Buffer.from(await encode(0)))).toBe(false);
  });

  it("takes rows in any chunk size: the same file as one band", async () => {
    const input = photo(900, 700);
    const whole = await encodeAvifGrid(input, 70);
    const w = new AvifGridWriter(900, 700, 70);
    const rowBytes = 900 * 4;
    for (let y = 0, n = 1; y < 700; y += n, n = ((n * 7 + 3) % 97) + 1) {
      const k = Math.min(n, 700 - y);
      await w.write({ data: input.data.subarray(y * rowBytes, (y + k) * rowBytes), width: 900, height: k });
    }
    expect(await w.finish()).toEqual(whole);
  }, 120_000);

  it("gives a photo tiles of up to 512 and screen content tiles of up to 288, judged on the first rows, for the same memory estimate", async () => {
    // 2400 x 1600: a photo in 5 x 4 tiles of 480 x 400, text in 9 x 6 of 268 x 268.
    const shot = await gridWith(aliasedText(2400, 1600), 85);
    expect(shot.photoTiles).toBe(false);
    expect(Math.max(shot.layout.tileWidth, shot.layout.tileHeight)).toBeLessThanOrEqual(AVIF_GRID_TILE);
    const decoded = await decodeAvif(shot.out);
    expect(mad(aliasedText(2400, 1600), decoded, () => true)).toBeLessThan(4);
    // A photo whose lower part is text keeps the photo tiles chosen by its top rows (IntraBC is then not searched).
    const mixed = photo(2400, 1600);
    mixed.data.set(aliasedText(2400, 1000).data, 600 * 2400 * 4);
    const m = await gridWith(mixed, 85);
    expect(m.photoTiles).toBe(true);
    expect(Math.max(m.layout.tileWidth, m.layout.tileHeight)).toBeGreaterThan(AVIF_GRID_TILE);
    expect(Math.max(m.layout.tileWidth, m.layout.tileHeight)).toBeLessThanOrEqual(AVIF_PHOTO_TILE);
    expect(mad(mixed, await decodeAvif(m.out), () => true)).toBeLessThan(4);
    // The photo layout is chosen to cost no more than the screen layout: the estimate is the small tiles' one.
    for (const [w, h] of [
      [2400, 1600],
      [1000, 1525],
      [6000, 4000],
      [3999, 2999],
      [12000, 600],
    ])
      expect(avifGridBytes(w, h)).toBe(avifGridBytes(w, h, { photoTile: 0 }));
  }, 180_000);

  it("writes the orientation as irot/imir on the grid item, pixels in stored order", async () => {
    // EXIF 6 = turn 90 degrees clockwise = irot 3 (anticlockwise quarter turns);
    // EXIF 5 = irot 1 then imir 0 (top-to-bottom); checked against libheif for all eight.
    for (const [orientation, want] of [
      [1, []],
      [6, [["irot", 3]]],
      [
        5,
        [
          ["irot", 1],
          ["imir", 0],
        ],
      ],
      [2, [["imir", 1]]],
    ] as const) {
      const out = await encodeAvifGrid(photo(200, 100), 80, { orientation });
      const m = readHeifMeta(out)!;
      const transforms = m.properties.filter((p) => p.box.type === "irot" || p.box.type === "imir");
      expect(transforms.map((p) => [p.box.type, out[p.box.start + 8]])).toEqual(want);
      expect(transforms.every((p) => p.essential)).toBe(true);
      // Transformative properties come after every descriptive one.
      const types = m.properties.map((p) => p.box.type);
      expect(types.slice(types.length - transforms.length)).toEqual(transforms.map((p) => p.box.type));
      const decoded = await decodeAvif(out);
      expect([decoded.width, decoded.height]).toEqual([200, 100]);
    }
  });

  it("reads back every orientation it writes, and shows the picture as EXIF would", async () => {
    // Our own reader (avif-container.ts) against our writer, for all eight:
    // the decoded, upright picture must equal the stored one turned by applyOrientation.
    const stored = photo(96, 64);
    const tile = await decodeAvif(await encodeAvifGrid(stored, 90, { orientation: 1 }));
    for (let orientation = 1; orientation <= 8; orientation++) {
      const out = await encodeAvifGrid(stored, 90, { orientation });
      expect(avifInfo(out).orientation, `orientation ${orientation}`).toBe(orientation);
      const upright = await pixelsOf(out);
      const expected = applyOrientation(tile, orientation);
      expect([upright.width, upright.height]).toEqual([expected.width, expected.height]);
      expect(Buffer.from(upright.data).equals(Buffer.from(expected.data)), `orientation ${orientation}`).toBe(true);
    }
  });

  it("refuses missing or extra rows and rows of another width", async () => {
    const w = new AvifGridWriter(100, 100, 80);
    await w.write(photo(100, 60));
    await expect(w.finish()).rejects.toThrow(/60 of 100 rows/);
    await expect(w.write(photo(100, 41))).rejects.toThrow(/more rows/);
    await expect(w.write(photo(99, 10))).rejects.toThrow(/wide/);
  });
});
