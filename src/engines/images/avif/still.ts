import { encodeAv1Stills, qualityToQuantizer, type Av1StillKind, type Av1TileContext } from "../codecs/av1-still";
import type { Pixels } from "../types";
import { stillConfig } from "./av1-sequence";
import { writeHeif, type HeifItem, type ItemProp } from "./heif-writer";
import { auxCAlpha, av1C, colrNclx, ispe, pixi, type Av1Config } from "./item-props";

// One AVIF picture: our AV1 still encoder makes the payloads, this file the
// item properties and the file, laid out as libavif lays out its own (a
// colour item 'Color', and an alpha item 'Alpha' referring to it with 'auxl'
// when the picture has transparency).

/** One AV1 image item: its payload, and its property boxes in ipma order (ispe, pixi, av1C, colr | auxC). */
export interface AvifImageItem {
  payload: Uint8Array;
  props: ItemProp[];
  width: number;
  height: number;
}

/** The items of one picture, before they become a file (or grid tiles). */
export interface SingleAvif {
  /** ftyp compatible brands. */
  brands: string[];
  color: AvifImageItem;
  alpha?: AvifImageItem;
}

/** Encoder speed 6 is libavif's and avifenc's default: the usual size/time balance. */
const AVIF_SPEED = 6;

export interface AvifStillOptions extends Av1TileContext {
  /** 4:2:0 (default) or 4:4:4 chroma. */
  chroma?: "420" | "444";
  /**
   * "auto" (default): an alpha item when any pixel is not opaque, as libavif
   * does; "always": one even for an opaque picture (grid tiles must agree);
   * "never": alpha ignored.
   */
  alpha?: "auto" | "always" | "never";
}

function opaque(px: Pixels): boolean {
  const d = px.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return false;
  return true;
}

/** MIAF profile brands: Baseline (4:2:0, level <= 5.1), Advanced (up to 4:4:4, level <= 5.1). */
function profileBrands(configs: readonly Av1Config[]): string[] {
  if (configs.some((c) => c.level > 13)) return [];
  if (configs.every((c) => c.profile === 0)) return ["MA1B"];
  if (configs.every((c) => c.profile <= 1)) return ["MA1A"];
  return [];
}

/** Encodes `px` into the items of one AVIF picture (payloads and properties), not yet a file. */
export async function encodeAvifItems(px: Pixels, quality: number, opts: AvifStillOptions = {}): Promise<SingleAvif> {
  const chroma = opts.chroma ?? "420";
  const mode = opts.alpha ?? "auto";
  const withAlpha = mode === "always" || (mode === "auto" && !opaque(px));
  const kinds: Av1StillKind[] = [chroma === "444" ? "color-444" : "color-420"];
  if (withAlpha) kinds.push("alpha");
  const [color, alpha] = await encodeAv1Stills(px, kinds, qualityToQuantizer(quality), AVIF_SPEED, opts);
  const colorConfig = stillConfig(color, { monochrome: false, subsampled: chroma === "420" });
  const size = ispe(px.width, px.height);
  const item = (payload: Uint8Array, props: ItemProp[]): AvifImageItem => ({ payload, props, width: px.width, height: px.height });
  const out: SingleAvif = {
    brands: [],
    color: item(color, [size, pixi(3), av1C(colorConfig), colrNclx()]),
  };
  const configs = [colorConfig];
  if (alpha) {
    const alphaConfig = stillConfig(alpha, { monochrome: true, subsampled: true });
    configs.push(alphaConfig);
    out.alpha = item(alpha, [size, pixi(1), av1C(alphaConfig), auxCAlpha()]);
  }
  out.brands = ["avif", "mif1", "miaf", ...profileBrands(configs)];
  return out;
}

/** The AVIF file of one picture; `transforms` (irot/imir) go on the colour item. */
function writeStillAvif(still: SingleAvif, transforms: readonly ItemProp[] = []): Uint8Array {
  const items: HeifItem[] = [{ id: 1, type: "av01", name: "Color", hidden: false, payload: still.color.payload, props: [...still.color.props, ...transforms] }];
  if (still.alpha) items.push({ id: 2, type: "av01", name: "Alpha", hidden: false, payload: still.alpha.payload, props: still.alpha.props });
  const references = still.alpha ? [{ type: "auxl" as const, from: 2, to: [1] }] : [];
  return writeHeif({ brands: still.brands, primary: 1, items, references });
}

/** Pixels to a single-picture AVIF file. */
export async function encodeAvifStill(px: Pixels, quality: number, opts: AvifStillOptions = {}): Promise<Uint8Array> {
  return writeStillAvif(await encodeAvifItems(px, quality, opts));
}
