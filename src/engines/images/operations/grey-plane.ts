import { readHeader } from "../formats/header";
import { BAND_PIXELS } from "../memory/budget";
import { pngInterlaced, sourceRoad } from "../memory/paths";
import { memoryProbe } from "../memory/probe";
import { openSource } from "../memory/sources";
import { StreamingResizer } from "../pixels/resample";

/**
 * A picture drawn at width x height, in grey (the luma weights MuPDF uses for
 * DeviceGray), read in bands at full size and resampled with Lanczos3 on the
 * fly: a big JPEG never exists whole in memory. For comparing a picture with
 * its re-encoded copy. Callers pass pictures without an EXIF rotation (PDF
 * images), which small pictures decoded whole would otherwise apply.
 */
export async function greyPlane(input: Uint8Array, width: number, height: number): Promise<{ data: Uint8Array; width: number; height: number }> {
  const header = readHeader(input);
  const road = sourceRoad({ format: header.format, pixels: header.width * header.height, interlaced: header.format === "png" && pngInterlaced(input) });
  const { source } = await openSource(input, road);
  const resizer = source.width === width && source.height === height ? null : new StreamingResizer(source.width, source.height, width, height);
  const data = new Uint8Array(width * height);
  let at = 0;
  for await (const band of source.bands(BAND_PIXELS)) {
    for (const rows of resizer ? resizer.push(band.pixels) : [band.pixels]) {
      const d = rows.data;
      for (let i = 0; i < d.length; i += 4) data[at++] = Math.round(d[i] * 0.299 + d[i + 1] * 0.587 + d[i + 2] * 0.114);
    }
    memoryProbe.sample();
  }
  return { data, width, height };
}
