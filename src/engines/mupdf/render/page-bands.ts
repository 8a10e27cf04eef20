import { contiguous } from "../../bytes";
import { PngRowWriter } from "../../images/codecs/png-writer";
import { JpegBandSource } from "../../images/jpeg/band-source";
import { JpegBandWriter } from "../../images/jpeg/band-writer";
import { parseJpeg } from "../../images/jpeg/markers";
import type { Pixels } from "../../images/types";
import { type GrayImage, ssim } from "../../quality/ssim";
import type { Mupdf } from "../core/loader";

// A big page to PNG or JPEG a band of rows at a time. MuPDF's own writers
// take the whole pixmap: its PNG writer allocates, beside it, the filtered
// rows and a compression buffer of the same size (three copies), its JPEG
// writer a whole-image coefficient buffer (seven bytes a pixel in all). A
// 5000 pt poster drawn at 8 MP took MuPDF's heap from 22 to 95 MB (PNG) and
// to 114 MB (JPEG) in one call (issue #31). Here MuPDF draws BAND_PIXELS at
// a time into a small pixmap and the image engine's band writers take the
// rows: our PNG writer on the runtime's zlib, the JPEG band writer on
// MozJPEG (whose heap the governor counts and can release when idle).

/** Pixels drawn at once: 3 MB of RGB in MuPDF, 4 MB of RGBA for the writer. */
export const BAND_PIXELS = 1_000_000;

type Page = ReturnType<InstanceType<Mupdf["PDFDocument"]>["loadPage"]>;

export interface Raster {
  /** The page's bounds' size in points. */
  width: number;
  height: number;
  /** Pixels of the output. */
  pw: number;
  ph: number;
}

/** The page drawn at `pw` x `ph` (as toPixmap draws it, annotations included), band by band as RGBA rows. */
async function drawBands(mupdf: Mupdf, page: Page, r: Raster, take: (band: Pixels) => Promise<void>): Promise<void> {
  const [x0, y0] = page.getBounds();
  const sx = r.pw / r.width;
  const sy = r.ph / r.height;
  // The page's top-left corner at pixel (0, 0), whatever its bounds' origin.
  const ctm: [number, number, number, number, number, number] = [sx, 0, 0, sy, -x0 * sx, -y0 * sy];
  const rows = Math.max(1, Math.min(r.ph, Math.floor(BAND_PIXELS / r.pw)));
  const rgba = new Uint8Array(r.pw * rows * 4);
  for (let top = 0; top < r.ph; top += rows) {
    const h = Math.min(rows, r.ph - top);
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, top, r.pw, top + h], false);
    try {
      pix.clear(255);
      const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
      try {
        page.run(device, ctm);
        device.close();
      } finally {
        device.destroy();
      }
      toRgba(pix.getPixels(), pix.getStride(), r.pw, h, rgba);
    } finally {
      // MuPDF's store keeps what every band draws again (fonts, a decoded picture): emptied when the call ends.
      pix.destroy();
    }
    await take({ data: rgba.subarray(0, r.pw * h * 4), width: r.pw, height: h });
  }
}

/** The page as an RGB PNG, drawn and compressed a band at a time. */
export async function bandedPng(mupdf: Mupdf, page: Page, r: Raster): Promise<Uint8Array> {
  const writer = new PngRowWriter(r.pw, r.ph, "rgb", undefined, true);
  await drawBands(mupdf, page, r, (band) => writer.write(band));
  return contiguous(await writer.finish());
}

/**
 * The page as a JPEG, drawn and encoded a band at a time; with `measure`,
 * also the SSIM (grey) of the JPEG against the drawing, read back in bands.
 */
export async function bandedJpeg(mupdf: Mupdf, page: Page, r: Raster, quality: number, measure: boolean): Promise<{ encoded: Uint8Array; fidelity: number }> {
  const writer = new JpegBandWriter(r.pw, r.ph, quality);
  const drawn = measure ? new Uint8Array(r.pw * r.ph) : null;
  let y = 0;
  await drawBands(mupdf, page, r, async (band) => {
    if (drawn) grey(band, drawn, y * r.pw);
    y += band.height;
    await writer.write(band);
  });
  const encoded = await writer.finish();
  if (!drawn) return { encoded, fidelity: 1 };
  const decoded = new Uint8Array(r.pw * r.ph);
  const source = new JpegBandSource(encoded, parseJpeg(encoded));
  for await (const band of source.bands(BAND_PIXELS)) grey(band.pixels, decoded, band.y * r.pw);
  const a: GrayImage = { data: drawn, width: r.pw, height: r.ph };
  const b: GrayImage = { data: decoded, width: r.pw, height: r.ph };
  return { encoded, fidelity: Math.round(ssim(a, b) * 10_000) / 10_000 };
}

function toRgba(rgb: ArrayLike<number>, stride: number, width: number, height: number, out: Uint8Array): void {
  for (let y = 0; y < height; y++) {
    for (let x = 0, s = y * stride, o = y * width * 4; x < width; x++, s += 3, o += 4) {
      out[o] = rgb[s];
      out[o + 1] = rgb[s + 1];
      out[o + 2] = rgb[s + 2];
      out[o + 3] = 255;
    }
  }
}

/** Grey as MuPDF's DeviceGray conversion weighs it (0.30 R + 0.59 G + 0.11 B), into `out` from `at`. */
function grey(px: Pixels, out: Uint8Array, at: number): void {
  const d = px.data;
  for (let i = 0, o = at; i < px.width * px.height * 4; i += 4, o++) out[o] = (d[i] * 77 + d[i + 1] * 151 + d[i + 2] * 28 + 128) >> 8;
}
