import { saveCopy, withPdf } from "../core/document";
import { imageForm } from "./forms";
import { loadMupdf } from "../core/loader";
import { anchorCenter, stampMatrix, tileCenters, visualSize, type Position, type Stamp } from "./placement";
import { loadStampImage, shrinkStamp } from "./stamp-image";
import { opacityState, stampEachPage } from "./stamp";
import { SAVE } from "../core/save-options";
import { STAMP_MARGIN, type StampResult } from "./watermark";

export interface ImageWatermarkOptions {
  image: Uint8Array;
  position: Position;
  opacity: number;
  scale: number;
  tile: boolean;
}

// At scale 1.0 a single stamp is about 30% of the page width, a tiled one
// about 15% (docs/reference/pdf-stamps.md, Image watermark).
const SINGLE_WIDTH = 0.3;
const TILE_WIDTH = 0.15;
const MAX_TILES = 200;

/**
 * Stamps a PNG or JPEG on every page. The image is embedded once (inside one
 * Form XObject) and drawn per page, sized from that page's visual width.
 */
export async function watermarkImage(bytes: Uint8Array, opts: ImageWatermarkOptions): Promise<StampResult> {
  const mupdf = await loadMupdf();
  // The image is checked before the PDF is opened: a bad image is a 422 either way.
  const image = loadStampImage(mupdf, await shrinkStamp(opts.image));
  try {
    return await withPdf(bytes, (doc) => {
      const form = imageForm(doc, image);
      const opacity = opacityState(doc, opts.opacity);
      const pages = stampEachPage(doc, (_i, size) => {
        const share = opts.tile ? TILE_WIDTH : SINGLE_WIDTH;
        const stamp: Stamp = { box: form.box, scale: (size[0] * share * opts.scale) / (form.box[2] - form.box[0]), angle: 0 };
        const [w, h] = visualSize(stamp);
        const centers = opts.tile
          ? tileCenters(size, 0, { stepX: w * 2, stepY: h * 1.5, stagger: true, max: MAX_TILES })
          : [anchorCenter(opts.position, size, [w, h], STAMP_MARGIN)];
        return { draws: [{ form: form.ref, matrices: centers.map(([x, y]) => stampMatrix(stamp, x, y)) }], opacity };
      });
      return { data: saveCopy(doc, SAVE.stamped), pages };
    });
  } finally {
    image.destroy();
  }
}
