import type { Image } from "mupdf";
import { encodeJpegFromRows, type Pixels } from "../../images";
import type { Mupdf } from "../core/loader";

// How a replacement JPEG is made, within a Worker's 128 MB. MozJPEG needs
// ~17 bytes of heap a pixel and no WASM heap ever shrinks, while a 300 dpi
// page scan is 8.7 MP. MuPDF draws the image at the target size (applying
// Decode arrays, colour spaces, CMYK), in bands of about a megapixel when it
// is large: for a band MuPDF decodes only the rows it needs, and the image
// tools' band writer turns the bands into one baseline JPEG with optimised
// tables. Small images are encoded whole and progressive.
//
// The image tools' streaming JPEG resizer was measured as an alternative for
// big JPEG sources: 3.5x slower here (JS decode and Lanczos) and no smaller
// in memory for progressive sources, which need every coefficient either way.

/**
 * Draws rows [y0, y1) of the image scaled to width x height into an RGB
 * pixmap over white, as RGBA. Drawing (rather than decoding at full size
 * first) lets MuPDF decode JPEGs at a reduced scale and only the rows a band
 * needs. Soft masks are not applied by the draw device, so they stay
 * separate and keep working.
 */
function rasterise(mupdf: Mupdf, image: Image, width: number, height: number, y0: number, y1: number): Pixels {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, y0, width, y1], false);
  try {
    pix.clear(255);
    const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
    try {
      device.fillImage(image, [width, 0, 0, height, 0, 0], 1);
      device.close();
    } finally {
      device.destroy();
    }
    const rgb = pix.getPixels();
    const rgba = new Uint8ClampedArray(width * (y1 - y0) * 4);
    for (let i = 0, j = 0; j < rgba.length; i += 3, j += 4) {
      rgba[j] = rgb[i];
      rgba[j + 1] = rgb[i + 1];
      rgba[j + 2] = rgb[i + 2];
      rgba[j + 3] = 255;
    }
    return { data: rgba, width, height: y1 - y0 };
  } finally {
    pix.destroy();
  }
}

/** The image as an RGB JPEG of width x height: large targets through the band writer, small ones whole and progressive. */
export function encodeReplacement(mupdf: Mupdf, image: Image, width: number, height: number, quality: number): Promise<Uint8Array> {
  const draw = (y0: number, y1: number) => rasterise(mupdf, image, width, height, y0, y1);
  return encodeJpegFromRows(width, height, quality, draw, () => mupdf.emptyStore());
}
