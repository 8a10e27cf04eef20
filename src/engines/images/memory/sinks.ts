import { AvifGridWriter } from "../avif/grid-writer";
import type { RowSink } from "./bands";
import { PngRowWriter, type PngLayout } from "../codecs/png-writer";
import { trimCodecHeaps } from "../codecs/emscripten";
import { encodeImage } from "../codecs/encode";
import { flattenOnWhite } from "../pixels/flatten";
import { JpegBandWriter } from "../jpeg/band-writer";
import { withPngIcc } from "../formats/metadata";
import { applyOrientation } from "../pixels/orientation";
import type { SinkRoad } from "./paths";
import { BAND_PIXELS } from "./budget";
import type { ImageFormat, Pixels } from "../types";

// The output side of a call, on the road paths.ts chose: rows arrive in
// stored order, top to bottom, and come out as one file.

export interface SinkSpec {
  format: ImageFormat;
  /** Stored-order size of the rows that will be written. */
  width: number;
  height: number;
  quality: number;
  icc?: Uint8Array;
  /** EXIF orientation the result must show. */
  orientation: number;
  /** What the source said about its pixels. */
  grey: boolean;
  alpha: boolean;
}

/** Collects rows into one picture, then turns it upright and encodes it whole. */
class WholeImageSink implements RowSink {
  private readonly data: Uint8Array;
  private y = 0;

  constructor(private readonly spec: SinkSpec) {
    this.data = new Uint8Array(spec.width * spec.height * 4);
  }

  async write(rows: Pixels): Promise<void> {
    this.data.set(rows.data, this.y * this.spec.width * 4);
    this.y += rows.height;
  }

  async finish(): Promise<Uint8Array> {
    const { width, height, format, quality, icc, orientation } = this.spec;
    // The band reader's codec heaps (MozJPEG's decoder: 16 MB) are not needed
    // any more: drop them before the whole-image encoder grows its own, so the
    // two never coexist (memory-fit.ts counts the larger of them, not both).
    trimCodecHeaps(0);
    return encodeImage(applyOrientation({ data: this.data, width, height }, orientation), format, { quality, icc });
  }
}

/** JPEG has no alpha: rows are composited onto white on their way in. */
class OntoWhite implements RowSink {
  constructor(private readonly inner: RowSink) {}
  write(rows: Pixels): Promise<void> {
    return this.inner.write(flattenOnWhite(rows));
  }
  finish(): Promise<Uint8Array> {
    return this.inner.finish();
  }
}

/** A PNG profile goes in after the rows (its chunk sits right after IHDR). */
class WithPngIcc implements RowSink {
  constructor(
    private readonly inner: RowSink,
    private readonly icc: Uint8Array | undefined,
  ) {}
  write(rows: Pixels): Promise<void> {
    return this.inner.write(rows);
  }
  async finish(): Promise<Uint8Array> {
    return withPngIcc(await this.inner.finish(), this.icc);
  }
}

const layoutFor = (spec: SinkSpec): PngLayout => (spec.grey ? (spec.alpha ? "grey-alpha" : "grey") : spec.alpha ? "rgba" : "rgb");

export function openSink(road: SinkRoad, spec: SinkSpec): RowSink {
  const { width, height, quality, icc, orientation } = spec;
  switch (road) {
    case "jpeg-bands": {
      const writer = new JpegBandWriter(width, height, quality, { icc, orientation }, BAND_PIXELS);
      return spec.alpha ? new OntoWhite(writer) : writer;
    }
    case "png-rows":
      return new WithPngIcc(new PngRowWriter(width, height, layoutFor(spec)), icc);
    case "avif-grid":
      return new AvifGridWriter(width, height, quality, { alpha: spec.alpha, orientation });
    case "whole":
      return new WholeImageSink(spec);
  }
}
