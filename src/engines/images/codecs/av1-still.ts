import createAv1StillEncoder, { type Av1StillModule } from "../../../../wasm/av1-still/av1_still_enc.js";
import wasm from "../../../../wasm/av1-still/av1_still_enc.wasm";
import type { Pixels } from "../types";
import { emscriptenCodec, type EmscriptenFactory, heapString } from "./emscripten";

// Our AV1 still-picture encoder: libaom 3.12 built for WASM with its SSE
// intrinsics compiled to WASM SIMD (wasm/av1-still/, see its build.sh). It
// turns RGBA pixels into the AV1 payload of one AVIF image item; the AVIF
// container is ours (avif/still.ts, avif/grid-container.ts). Settings are
// libavif's for a single image (see av1-still.c).

const encoder = emscriptenCodec("av1_still_enc", createAv1StillEncoder as unknown as EmscriptenFactory<Av1StillModule>, wasm);

export type Av1StillKind = "color-420" | "color-444" | "alpha";
const KIND_CODE: Record<Av1StillKind, number> = { "color-420": 0, "color-444": 1, alpha: 2 };

/** libavif's quality (0..100) to AV1 quantizer (63..0) mapping, so quality means what it means in every libavif tool. */
export function qualityToQuantizer(quality: number): number {
  return Math.floor(((100 - quality) * 63 + 50) / 100);
}

/**
 * aom's screen-content search, as a grid writer imposes it: "off"; "palette"
 * (its screen-content tools, cheap); "all" (those, IntraBC and the
 * screen-content frame type: what pays on text and screenshots, and costs a
 * photo 4 times the time). See avif/screen-content.ts.
 */
export type ScreenTools = "off" | "palette" | "all";
const SCREEN_MASK: Record<ScreenTools, number> = { off: 0, palette: 1, all: 7 };

/** What a grid tile tells the encoder about the picture it belongs to. */
export interface Av1TileContext {
  /** Imposes a screen-content decision on the colour; left out, aom decides from these pixels. */
  screenTools?: ScreenTools;
  /** The same for the alpha item, judged on the alpha channel. */
  alphaScreenTools?: ScreenTools;
  /**
   * The whole picture's shorter side: aom picks its size-dependent speed
   * features (partition limits, ML partition models) by it instead of by this
   * tile's, so a 286-pixel tile of a 12 MP photo is searched as the photo
   * would be, not as a thumbnail (1.5x faster, files 0.5% larger).
   */
  pictureSide?: number;
}

/**
 * One AV1 still per requested kind, from the same pixels (copied into the
 * encoder's heap once): e.g. ["color-420", "alpha"] gives the colour and the
 * alpha payloads of one picture. `tile` is for grid tiles; left out, aom
 * judges these pixels as a picture of their own.
 */
export async function encodeAv1Stills(
  px: Pixels,
  kinds: readonly Av1StillKind[],
  quantizer: number,
  speed: number,
  tile: Av1TileContext = {},
): Promise<Uint8Array[]> {
  const { module: m } = await encoder();
  const bytes = px.width * px.height * 4;
  const at = m._malloc(bytes);
  if (!at) throw new Error("AV1 encode failed: out of memory.");
  try {
    m.HEAPU8.set(px.data.length === bytes ? px.data : px.data.subarray(0, bytes), at);
    const side = Math.max(0, Math.round(tile.pictureSide ?? 0));
    return kinds.map((kind) => {
      const tools = kind === "alpha" ? tile.alphaScreenTools : tile.screenTools;
      const screen = tools === undefined ? -1 : SCREEN_MASK[tools];
      const n = m._still_encode(at, px.width, px.height, KIND_CODE[kind], quantizer, speed, screen, side);
      if (n < 0) throw new Error(`AV1 encode failed: ${heapString(m.HEAPU8, m._still_message())}.`);
      const out = m.HEAPU8.slice(m._still_output(), m._still_output() + n);
      m._still_release();
      return out;
    });
  } finally {
    m._free(at);
  }
}
