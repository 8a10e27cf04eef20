import { EngineError } from "../../errors";
import { resizeLanczos3 } from "../codecs/resize";
import { decodeImage, upright } from "../codecs/decode";
import { encodeImage } from "../codecs/encode";
import { checkPixels, readHeader } from "../formats/header";
import { fitWorker } from "../memory/memory-fit";
import { swapsAxes } from "../pixels/orientation";
import { inputFacts, sinkRoad, sourceRoad, turnsRows, type InputFacts, type SourceRoad } from "../memory/paths";
import { WASM_RESIZE_PIXELS } from "../memory/budget";
import { openSink } from "../memory/sinks";
import { UprightSource } from "../memory/upright-source";
import { recordSource } from "../memory/roads-taken";
import { bandedOrientation, openSource } from "../memory/sources";
import { resizeInJs, transcode } from "../memory/streaming";
import type { ImageResult } from "./result";
import type { ImageFormat, ImageHeader } from "../types";

export const MAX_SIDE = 20000;

export interface ResizeRequest {
  /** Upright target sides; omit both to keep the size (convert). */
  width?: number;
  height?: number;
  format?: ImageFormat;
  quality: number;
  /** A big JPEG shrunk by 1/2, 1/4 or 1/8 takes that DCT-domain decode as the whole resampling, without the usual antialiasing margin (PDF images, whose scales are snapped to these). */
  directDctScale?: boolean;
  /** GIF outputs: the palette's quality (compress); by default the most accurate palette. */
  paletteQuality?: number;
}

/** Target size: both sides as given, or one side with the other kept in proportion (docs/reference/images.md). */
export function targetSize(srcW: number, srcH: number, req: { width?: number; height?: number }): [number, number] {
  let w = req.width;
  let h = req.height;
  if (w === undefined && h === undefined) throw new EngineError("invalid_input", "Give width, height or both.");
  if (w === undefined) w = Math.round((srcW * (h as number)) / srcH);
  if (h === undefined) h = Math.round((srcH * w) / srcW);
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
    throw new EngineError("invalid_input", `The resized image would be ${w}x${h} px; each side must be within 1 to ${MAX_SIDE} px.`);
  }
  return [w, h];
}

const keepsSize = (req: ResizeRequest) => req.width === undefined && req.height === undefined;

/**
 * An input read in bands (a big JPEG or non-interlaced PNG): resized (or not)
 * on the fly into the output's sink, in stored order; the sink applies the
 * orientation (as a JPEG tag, AVIF irot/imir, or by turning a whole picture).
 */
async function resizeBanded(
  input: Uint8Array,
  header: ImageHeader,
  facts: InputFacts,
  road: Exclude<SourceRoad, "whole">,
  req: ResizeRequest,
): Promise<ImageResult> {
  // Orientation and upright size first: a resize target is given upright.
  const orientation = bandedOrientation(input, road);
  const swap = swapsAxes(orientation);
  const [srcW, srcH] = swap ? [header.height, header.width] : [header.width, header.height];
  const [w, h] = keepsSize(req) ? [srcW, srcH] : targetSize(srcW, srcH, req);
  checkPixels(w, h, "The resized image");
  const [storedW, storedH] = swap ? [h, w] : [w, h];
  const format = req.format ?? header.format;
  const planned = sinkRoad(format, w * h);
  const turned = orientation !== 1 && turnsRows(planned);
  const admitted = await fitWorker({
    input: facts,
    source: road,
    output: { format, width: storedW, height: storedH, sink: planned, turned },
  });
  const sink = admitted.output?.sink ?? planned;
  // A big JPEG shrunk a lot starts from a reduced-scale decode.
  const shrinkTo = keepsSize(req) ? undefined : { width: storedW, height: storedH, direct: req.directDctScale };
  const opened = await openSource(input, road, shrinkTo);
  const spec = { ...opened, format, width: storedW, height: storedH, quality: req.quality, paletteQuality: req.paletteQuality };
  const reopen = async () => (await openSource(input, road, shrinkTo, true)).source;
  if (turned) {
    // Rows must reach the writer upright: gathered a band of upright rows per pass over the source.
    const upright = new UprightSource(reopen, storedW, storedH, orientation);
    const bytes = await transcode(upright, w, h, openSink(sink, { ...spec, width: w, height: h, orientation: 1 }));
    return { bytes, format, width: w, height: h, originalWidth: srcW, originalHeight: srcH, notes: opened.notes };
  }
  const bytes = await transcode(opened.source, storedW, storedH, openSink(sink, spec), reopen);
  return { bytes, format, width: w, height: h, originalWidth: srcW, originalHeight: srcH, notes: opened.notes };
}

export async function resizeImage(input: Uint8Array, req: ResizeRequest): Promise<ImageResult> {
  const header = readHeader(input);
  const pixels = header.width * header.height;
  const facts = inputFacts(input, header);
  const road = sourceRoad(facts);
  if (road !== "whole") return resizeBanded(input, header, facts, road, req);
  // Decoding is checked from the header; the target size is only known (and
  // validated) once the orientation is, after decoding, and checked then.
  const source = { format: header.format, pixels };
  // A convert's output size is the input's: the whole call is checked before decoding.
  const sameSize = keepsSize(req) ? { format: req.format ?? header.format, width: header.width, height: header.height } : null;
  await fitWorker({ input: source, source: "whole", output: sameSize ? { ...sameSize, sink: sinkRoad(sameSize.format, pixels) } : undefined });
  recordSource("whole");
  const d = await decodeImage(input);
  const px = upright(d);
  const [w, h] = keepsSize(req) ? [px.width, px.height] : targetSize(px.width, px.height, req);
  checkPixels(w, h, "The resized image");
  const format = req.format ?? d.format;
  const admitted = await fitWorker({ input: source, source: "whole", output: { format, width: w, height: h, sink: sinkRoad(format, w * h) } });
  const small = px.width * px.height + w * h <= WASM_RESIZE_PIXELS;
  const out = w === px.width && h === px.height ? px : small ? await resizeLanczos3(px, w, h) : resizeInJs(px, w, h);
  const bytes = await encodeImage(out, format, { quality: req.quality, icc: d.icc, avifGrid: admitted.output?.sink === "avif-grid" });
  return { bytes, format, width: w, height: h, originalWidth: px.width, originalHeight: px.height, notes: d.notes };
}
