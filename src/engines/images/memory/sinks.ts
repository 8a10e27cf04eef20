import { AvifGridWriter } from "../avif/grid-writer";
import { BmpRowWriter } from "../codecs/bmp";
import { GifRowWriter } from "../codecs/gif";
import { TiffStripWriter } from "../codecs/tiff";
import type { RowSink } from "./bands";
import { PngRowWriter, type PngLayout } from "../codecs/png-writer";
import { trimCodecHeaps } from "../codecs/emscripten";
import { encodeImage } from "../codecs/encode";
import { flattenOnWhite } from "../pixels/flatten";
import { JpegBandWriter } from "../jpeg/band-writer";
import { WebpBandWriter } from "../webp/band-writer";
import { applyOrientation } from "../pixels/orientation";
import type { SinkRoad } from "./paths";
import type { FileBytes } from "../../bytes";
import { recordSink } from "./roads-taken";
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
  /** GIF: the palette's quality (compress); a conversion keeps the most accurate palette, as encodeImage does. */
  paletteQuality?: number;
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

/** JPEG and BMP have no alpha: rows are composited onto white on their way in. */
class OntoWhite implements RowSink {
  constructor(private readonly inner: RowSink) {}
  write(rows: Pixels): Promise<void> {
    return this.inner.write(flattenOnWhite(rows));
  }
  finish(): Promise<FileBytes> {
    return this.inner.finish();
  }
}

const layoutFor = (spec: SinkSpec): PngLayout => (spec.grey ? (spec.alpha ? "grey-alpha" : "grey") : spec.alpha ? "rgba" : "rgb");

export function openSink(road: SinkRoad, spec: SinkSpec): RowSink {
  recordSink(road);
  const { width, height, quality, icc, orientation } = spec;
  switch (road) {
    case "jpeg-bands": {
      const writer = new JpegBandWriter(width, height, quality, { icc, orientation }, BAND_PIXELS);
      return spec.alpha ? new OntoWhite(writer) : writer;
    }
    case "png-rows":
      return new PngRowWriter(width, height, layoutFor(spec), icc, true);
    case "avif-grid":
      return new AvifGridWriter(width, height, quality, { alpha: spec.alpha, orientation });
    case "bmp-rows": {
      const writer = new BmpRowWriter(width, height, orientation);
      return spec.alpha ? new OntoWhite(writer) : writer;
    }
    case "gif-indices":
      return new GifRowWriter(width, height, spec.paletteQuality ?? 100, orientation);
    case "tiff-strips":
      return new TiffStripWriter(width, height, { alpha: spec.alpha, icc });
    case "webp-planes":
      return new WebpBandWriter(width, height, quality, { orientation, alpha: spec.alpha, icc });
    case "whole":
      return new WholeImageSink(spec);
  }
}
