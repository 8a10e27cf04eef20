import { saveCopy, withPdf } from "../core/document";
import { graftLabelForms } from "./forms";
import { loadMupdf } from "../core/loader";
import { anchorCenter, stampMatrix, tileCenters, visualSize, type Position, type Stamp } from "./placement";
import { opacityState, stampEachPage } from "./stamp";
import { SAVE } from "../core/save-options";
import { layoutLabels } from "./text-layout";

export interface TextWatermarkOptions {
  text: string;
  position: Position;
  opacity: number;
  fontSize: number;
  color: string;
  rotation: number;
  tile: boolean;
}

export interface StampResult {
  data: Uint8Array;
  pages: number;
}

/** Distance of an anchored stamp from the page edges (half an inch). */
export const STAMP_MARGIN = 36;
/** Upper bound of tiled copies on one page. */
const MAX_TILES = 200;

/**
 * Stamps the text as vector, selectable text on every page: laid out once
 * (see text-layout.ts), stored once as a Form XObject and drawn per page
 * with the page's own placement, so the output grows by one form, not by
 * one copy of the text per page.
 */
export async function watermarkText(bytes: Uint8Array, opts: TextWatermarkOptions): Promise<StampResult> {
  const mupdf = await loadMupdf();
  return withPdf(bytes, (doc) => {
    const sheet = layoutLabels(mupdf, [opts.text], { fontSize: opts.fontSize, color: opts.color });
    try {
      const [form] = graftLabelForms(doc, sheet.doc, sheet.boxes);
      // A tiled watermark with rotation 0 runs at 45 degrees (docs/reference/pdf-stamps.md, Tile).
      const stamp: Stamp = { box: form.box, scale: 1, angle: opts.tile && opts.rotation === 0 ? 45 : opts.rotation };
      const opacity = opacityState(doc, opts.opacity);
      const pages = stampEachPage(doc, (_i, size) => {
        const centers = opts.tile ? textTiles(stamp, size) : [anchorCenter(opts.position, size, visualSize(stamp), STAMP_MARGIN)];
        return { draws: [{ form: form.ref, matrices: centers.map(([x, y]) => stampMatrix(stamp, x, y)) }], opacity };
      });
      return { data: saveCopy(doc, SAVE.stamped), pages };
    } finally {
      sheet.doc.destroy();
    }
  });
}

/** Rows of text along the angle, half a text width apart, rows three lines apart. */
function textTiles(stamp: Stamp, size: [number, number]): [number, number][] {
  const w = stamp.box[2] - stamp.box[0];
  const h = stamp.box[3] - stamp.box[1];
  return tileCenters(size, stamp.angle, { stepX: w * 1.5, stepY: h * 3, stagger: true, max: MAX_TILES });
}
