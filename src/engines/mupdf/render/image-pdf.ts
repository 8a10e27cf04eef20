import { reserveMemory } from "../../../runtime/memory";
import { decodePixels, imageFacts, type Pixels } from "../../images";
import { asEngineError, saveCopy } from "../core/document";
import { loadMupdf, type Mupdf } from "../core/loader";
import { SAVE } from "../core/save-options";

// One image, one page at the image's own size (a pixel is a point, as
// img2pdf and ImageMagick do without a resolution). A JPEG goes in as it is:
// MuPDF keeps the compressed bytes of an image it parsed and writes them as
// a DCTDecode stream, so nothing is re-encoded and its EXIF orientation is
// applied by the placement matrix instead of by turning pixels. Every other
// format is decoded by the image engine and stored losslessly (Flate, with a
// soft mask when it has transparency).

export interface ImagePdf {
  pdf: Uint8Array;
  /** Page size in points. */
  width: number;
  height: number;
  /** "embedded" when a JPEG was placed as it came, "lossless" when pixels were stored with Flate. */
  storage: "embedded" | "lossless";
  notes: string[];
}

const BASE_BYTES = 8 * 1024 * 1024;

// The PDF 1.7 page limit is 14,400 units a side; bigger images get a smaller page, never fewer pixels.
const MAX_PAGE_SIDE = 14_400;

export async function imageToPdf(bytes: Uint8Array): Promise<ImagePdf> {
  const facts = imageFacts(bytes);
  // Known from the header: a JPEG is only parsed; other pictures are held as
  // RGBA by the decoder and again as a pixmap, then deflated (isolate budget,
  // runtime/memory.ts).
  const pixels = facts.width * facts.height;
  await reserveMemory(BASE_BYTES + 3 * bytes.byteLength + (facts.format === "jpeg" ? 0 : 10 * pixels));
  if (facts.format === "jpeg") {
    const mupdf = await loadMupdf();
    const swap = facts.orientation >= 5 && facts.orientation <= 8;
    const [w, h] = swap ? [facts.height, facts.width] : [facts.width, facts.height];
    const image = wrap(() => new mupdf.Image(bytes));
    return { ...place(mupdf, image, w, h, facts.orientation), storage: "embedded", notes: [] };
  }
  const decoded = await decodePixels(bytes);
  const mupdf = await loadMupdf();
  const image = new mupdf.Image(toPixmap(mupdf, decoded.pixels, decoded.hasAlpha));
  return { ...place(mupdf, image, decoded.pixels.width, decoded.pixels.height, 1), storage: "lossless", notes: decoded.notes };
}

function wrap<T>(make: () => T): T {
  try {
    return make();
  } catch (err) {
    throw asEngineError(err, "corrupt", "The image could not be read");
  }
}

/** RGBA from the image engine into a MuPDF pixmap (RGB, with alpha only when some pixel is transparent; MuPDF premultiplies). */
function toPixmap(mupdf: Mupdf, px: Pixels, alpha: boolean) {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, px.width, px.height], alpha);
  const samples = pix.getPixels();
  const n = alpha ? 4 : 3;
  const src = px.data;
  for (let i = 0, j = 0; i < src.length; i += 4, j += n) {
    const a = alpha ? src[i + 3] : 255;
    samples[j] = (src[i] * a) / 255;
    samples[j + 1] = (src[i + 1] * a) / 255;
    samples[j + 2] = (src[i + 2] * a) / 255;
    if (alpha) samples[j + 3] = a;
  }
  return pix;
}

type Image = InstanceType<Mupdf["Image"]>;

/** Writes a one-page PDF showing `image` upright on a page of its displayed size. */
function place(mupdf: Mupdf, image: Image, width: number, height: number, orientation: number): Omit<ImagePdf, "storage" | "notes"> {
  const scale = Math.min(1, MAX_PAGE_SIDE / Math.max(width, height));
  const [w, h] = [round(width * scale), round(height * scale)];
  const doc = new mupdf.PDFDocument();
  try {
    const resources = doc.newDictionary();
    const xobjects = doc.newDictionary();
    xobjects.put("Im0", doc.addImage(image));
    resources.put("XObject", xobjects);
    const content = `q ${orientationMatrix(orientation, w, h).join(" ")} cm /Im0 Do Q`;
    doc.insertPage(-1, doc.addPage([0, 0, w, h], 0, resources, content));
    return { pdf: saveCopy(doc, SAVE.converted), width: w, height: h };
  } finally {
    doc.destroy();
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The `cm` matrix that draws the stored image (unit square, v up) upright on
 * a W x H page for each EXIF orientation: where stored row 0 and column 0
 * end up (1 top/left, 2 top/right, 3 bottom/right, 4 bottom/left, 5 left/top,
 * 6 right/top, 7 right/bottom, 8 left/bottom).
 */
export function orientationMatrix(orientation: number, W: number, H: number): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2:
      return [-W, 0, 0, H, W, 0];
    case 3:
      return [-W, 0, 0, -H, W, H];
    case 4:
      return [W, 0, 0, -H, 0, H];
    case 5:
      return [0, -H, -W, 0, W, H];
    case 6:
      return [0, -H, W, 0, 0, H];
    case 7:
      return [0, H, W, 0, 0, 0];
    case 8:
      return [0, H, -W, 0, W, 0];
    default:
      return [W, 0, 0, H, 0, 0];
  }
}
