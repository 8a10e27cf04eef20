import { pixelsSource, type BandSource } from "./bands";
import { decodeImage, upright } from "../codecs/decode";
import { checkedJpeg } from "../jpeg/decode-file";
import { parseJpeg } from "../jpeg/markers";
import { canDecodeScaled, directScaleDenominator, ScaledJpegSource, scaleDenominator } from "../jpeg/scaled-source";
import { JpegBandSource } from "../jpeg/band-source";
import { pngIcc, pngIsAnimated, pngOrientation, rgbIcc } from "../formats/metadata";
import type { SourceRoad } from "./paths";
import { recordSource } from "./roads-taken";
import { PngBandSource } from "../png/band-source";
import { layoutOf } from "../codecs/png-writer";
import { BmpBandSource } from "../bmp/band-source";
import { GifBandSource } from "../gif/band-source";
import { openTiffSource } from "../tiff/band-source";
import { tiffOrientation } from "../codecs/tiff";
import { WebpBandSource } from "../webp/band-source";
import { webpIcc, webpOrientation } from "../formats/metadata";
import { readHeader } from "../formats/header";
import { AvifBandSource } from "../avif/decoder/band-source";
import { avifLayout } from "../avif/decoder/items";
import { avifInfo } from "../formats/avif-container";
import { EngineError } from "../../errors";

// An input opened as a band source, on the road paths.ts chose for it, with
// what the output side needs to know before the first row arrives.

export interface OpenedSource {
  source: BandSource;
  /** EXIF orientation that still has to be applied: bands come in stored order. */
  orientation: number;
  icc?: Uint8Array;
  /** Every pixel is grey (lets a PNG output use a grey layout). */
  grey: boolean;
  /** Some pixel may be translucent. */
  alpha: boolean;
  notes: string[];
}

/** The EXIF orientation of an input on a banded road, read without opening it. */
export function bandedOrientation(input: Uint8Array, road: Exclude<SourceRoad, "whole">): number {
  switch (road) {
    case "jpeg-bands":
      return checkedJpeg(input).orientation;
    case "png-bands":
      return pngOrientation(input);
    case "tiff-bands":
    case "tiff-tiles":
      return tiffOrientation(input);
    case "webp-bands":
    case "webp-lossless-bands":
      return webpOrientation(input);
    case "avif-bands":
    case "avif-tiles":
      return avifInfo(input).orientation;
    default:
      return 1;
  }
}

/**
 * `shrinkTo` (stored-order size of a resize target) lets a big JPEG start from
 * a 1/2, 1/4 or 1/8 scale decode in the DCT domain when the reduction is large.
 */
export async function openSource(
  input: Uint8Array,
  road: SourceRoad,
  shrinkTo?: { width: number; height: number; direct?: boolean },
  again = false,
): Promise<OpenedSource> {
  // A second pass over the same input (`again`) is not another call on the road.
  if (!again) recordSource(road);
  switch (road) {
    case "jpeg-bands": {
      const { orientation, icc } = checkedJpeg(input);
      const s = parseJpeg(input);
      const frame = s.frame;
      const denominator = shrinkTo?.direct ? directScaleDenominator : scaleDenominator;
      const d = frame && shrinkTo && canDecodeScaled(s) ? denominator(frame.width, frame.height, shrinkTo.width, shrinkTo.height) : 1;
      const source = d > 1 ? new ScaledJpegSource(input, s, d) : new JpegBandSource(input, s);
      return { source, orientation, icc, grey: frame?.components.length === 1, alpha: false, notes: [] };
    }
    case "png-bands": {
      const source = new PngBandSource(input);
      const frames = pngIsAnimated(input);
      const notes = frames > 1 ? [`animated PNG: the default image of ${frames} frames was used`] : [];
      return { source, orientation: pngOrientation(input), icc: rgbIcc(pngIcc(input)), grey: source.grey, alpha: source.mayHaveAlpha, notes };
    }
    case "bmp-bands": {
      const source = new BmpBandSource(input);
      return { source, orientation: 1, grey: false, alpha: source.mayHaveAlpha, notes: [] };
    }
    case "gif-bands": {
      const source = new GifBandSource(input);
      const notes = source.frames > 1 ? [`animated GIF: the first of ${source.frames} frames was used`] : [];
      return { source, orientation: 1, grey: false, alpha: source.mayHaveAlpha, notes };
    }
    case "tiff-bands":
    case "tiff-tiles": {
      const source = openTiffSource(input);
      const notes = source.pages > 1 ? [`multi-page TIFF: the first of ${source.pages} pages was used`] : [];
      return { source, orientation: source.orientation, icc: rgbIcc(source.icc), grey: false, alpha: source.mayHaveAlpha, notes };
    }
    case "webp-bands":
    case "webp-lossless-bands": {
      const { width, height } = readHeader(input);
      const source = new WebpBandSource(input, width, height);
      return { source, orientation: webpOrientation(input), icc: rgbIcc(webpIcc(input)), grey: false, alpha: source.mayHaveAlpha, notes: [] };
    }
    case "avif-bands":
    case "avif-tiles": {
      const layout = avifLayout(input);
      if (!layout) throw new EngineError("corrupt", "The AVIF could not be decoded: its primary item is not a single AV1 image.");
      const source = new AvifBandSource(layout);
      const info = avifInfo(input);
      return { source, orientation: info.orientation, icc: rgbIcc(info.icc), grey: source.grey, alpha: source.mayHaveAlpha, notes: [] };
    }
    case "whole": {
      // Decoded whole anyway, so it is turned upright at once.
      const d = await decodeImage(input);
      const px = upright(d);
      const layout = layoutOf(px);
      return { source: pixelsSource(px), orientation: 1, icc: d.icc, grey: layout.startsWith("grey"), alpha: layout.endsWith("alpha"), notes: d.notes };
    }
  }
}
