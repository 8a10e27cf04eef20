import type { Pixels } from "../types";
import type { CoefBand } from "./band";
import { bandPixels } from "./band-pixels";
import type { FrameGeometry } from "./frame";

// Four-component (CMYK / YCCK) JPEGs: MozJPEG's RGBA output cannot take them,
// so each component is written as its own greyscale JPEG and decoded (libjpeg
// still does the IDCT), upsampled if subsampled, then combined here. Adobe
// writes CMYK inverted (255 = no ink); its transform flag 2 means YCCK.

function componentGeometry(g: FrameGeometry, ci: number, rows: number): FrameGeometry {
  const c = g.components[ci];
  const width = Math.ceil((g.width * c.h) / g.hmax);
  const mcusX = Math.ceil(width / 8);
  const mcusY = Math.ceil(rows / 8);
  return {
    width,
    height: rows,
    hmax: 1,
    vmax: 1,
    mcusX,
    mcusY,
    mcuH: 8,
    components: [{ id: 1, h: 1, v: 1, tq: c.tq, bw: mcusX, bh: mcusY, realBw: mcusX, realBh: mcusY }],
  };
}

/** One component's samples for the band, at its own resolution. */
async function plane(g: FrameGeometry, dqt: Uint8Array[], band: CoefBand, ci: number): Promise<Pixels> {
  const c = g.components[ci];
  const compHeight = Math.ceil((g.height * c.v) / g.vmax);
  const top = band.firstMcuRow * c.v * 8;
  const rows = Math.min(band.mcuRows * c.v * 8, compHeight - top);
  const sub = componentGeometry(g, ci, rows);
  const blocks = new Int16Array(sub.mcusX * sub.mcusY * 64);
  for (let by = 0; by < sub.mcusY; by++) {
    const src = band.planes[ci].subarray(by * c.bw * 64, (by * c.bw + sub.mcusX) * 64);
    blocks.set(src, by * sub.mcusX * 64);
  }
  // The sub-image starts at its own row 0.
  return bandPixels({ ...sub, height: rows }, dqt, { firstMcuRow: 0, mcuRows: sub.mcusY, planes: [blocks] }, []);
}

export async function cmykBandPixels(g: FrameGeometry, dqt: Uint8Array[], band: CoefBand, adobeTransform: number | null): Promise<Pixels> {
  const top = band.firstMcuRow * g.mcuH;
  const height = Math.min(band.mcuRows * g.mcuH, g.height - top);
  const planes: Pixels[] = [];
  for (let ci = 0; ci < 4; ci++) planes.push(await plane(g, dqt, band, ci));
  const out = new Uint8Array(g.width * height * 4);
  const sample = (ci: number, x: number, y: number): number => {
    const c = g.components[ci];
    const p = planes[ci];
    const sx = Math.min(p.width - 1, Math.floor((x * c.h) / g.hmax));
    const sy = Math.min(p.height - 1, Math.floor((y * c.v) / g.vmax));
    return p.data[(sy * p.width + sx) * 4];
  };
  const inverted = adobeTransform !== null;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < g.width; x++) {
      let c = sample(0, x, y),
        m = sample(1, x, y),
        ye = sample(2, x, y);
      const k = sample(3, x, y);
      if (adobeTransform === 2) {
        // YCCK: the first three are YCbCr of (255 - CMY), as libjpeg undoes it.
        const Y = c,
          cb = m - 128,
          cr = ye - 128;
        c = 255 - (Y + 1.402 * cr);
        m = 255 - (Y - 0.344136 * cb - 0.714136 * cr);
        ye = 255 - (Y + 1.772 * cb);
      }
      const o = (y * g.width + x) * 4;
      if (inverted) {
        out[o] = Math.max(0, Math.min(255, Math.round((c * k) / 255)));
        out[o + 1] = Math.max(0, Math.min(255, Math.round((m * k) / 255)));
        out[o + 2] = Math.max(0, Math.min(255, Math.round((ye * k) / 255)));
      } else {
        out[o] = Math.round(((255 - c) * (255 - k)) / 255);
        out[o + 1] = Math.round(((255 - m) * (255 - k)) / 255);
        out[o + 2] = Math.round(((255 - ye) * (255 - k)) / 255);
      }
      out[o + 3] = 255;
    }
  }
  return { data: out, width: g.width, height };
}
