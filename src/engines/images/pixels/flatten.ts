import type { Pixels } from "../types";

/** Composites onto opaque white: JPEG and BMP have no alpha (issue 4: "flattened onto white"). */
export function flattenOnWhite(px: Pixels): Pixels {
  const d = px.data;
  const out = new Uint8Array(d.length);
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3];
    if (a === 255) {
      out[i] = d[i];
      out[i + 1] = d[i + 1];
      out[i + 2] = d[i + 2];
    } else {
      const inv = 255 - a;
      out[i] = (d[i] * a + 255 * inv + 127) / 255;
      out[i + 1] = (d[i + 1] * a + 255 * inv + 127) / 255;
      out[i + 2] = (d[i + 2] * a + 255 * inv + 127) / 255;
    }
    out[i + 3] = 255;
  }
  return { data: out, width: px.width, height: px.height };
}
