import { readHeader } from "../formats/header";
import type { RowSink } from "../memory/bands";
import { inputFacts, sourceRoad } from "../memory/paths";
import { openSource } from "../memory/sources";
import { transcode } from "../memory/streaming";
import type { Pixels } from "../types";

/** Rows kept as one grey plane (the luma weights MuPDF uses for DeviceGray) instead of written to a file. */
class GreyPlaneSink implements RowSink {
  private readonly plane: Uint8Array;
  private at = 0;

  constructor(width: number, height: number) {
    this.plane = new Uint8Array(width * height);
  }

  async write(rows: Pixels): Promise<void> {
    const d = rows.data;
    for (let i = 0; i < d.length; i += 4) this.plane[this.at++] = Math.round(d[i] * 0.299 + d[i + 1] * 0.587 + d[i + 2] * 0.114);
  }

  async finish(): Promise<Uint8Array> {
    return this.plane;
  }
}

/**
 * A picture drawn at width x height, in grey, read in bands at full size and
 * resampled on the fly (transcode's Lanczos3): a big JPEG never exists whole
 * in memory. For comparing a picture with its re-encoded copy. Callers pass
 * pictures without an EXIF rotation (PDF images), which small pictures
 * decoded whole would otherwise apply.
 */
export async function greyPlane(input: Uint8Array, width: number, height: number): Promise<{ data: Uint8Array; width: number; height: number }> {
  const header = readHeader(input);
  const road = sourceRoad(inputFacts(input, header));
  const { source } = await openSource(input, road);
  return { data: await transcode(source, width, height, new GreyPlaneSink(width, height)), width, height };
}
