import { EngineError } from "../../errors";
import { decodeJpeg } from "../codecs/jpeg";
import { jpegIcc, jpegOrientation, rgbIcc } from "../formats/metadata";
import type { Pixels } from "../types";
import { decodeLargeJpeg, STREAM_PIXELS } from "../memory/streaming";
import { isArithmetic, isLossless, isProgressive, parseJpeg, type JpegFrame, type JpegStructure } from "./markers";

// JPEG files: refuse what cannot be decoded correctly with a reason, then let
// MozJPEG decode.

export interface JpegFile {
  pixels: Pixels;
  orientation: number;
  icc?: Uint8Array;
}

const corrupt = (why: string) => new EngineError("corrupt", `The JPEG could not be decoded: ${why}.`);

/** Checks we can make from the marker layout alone. */
export function checkJpegStructure(s: JpegStructure): void {
  const frame = s.frame;
  if (!frame) throw corrupt("no frame header");
  if (frame.precision !== 8) throw corrupt(`${frame.precision}-bit samples are not supported (only 8-bit JPEG)`);
  if (isLossless(frame.marker)) throw corrupt("lossless JPEG (SOF3) is not supported");
  if (!s.scans.length) throw corrupt("no image data (truncated file)");
  if (!s.complete) throw corrupt("the file is truncated (no end-of-image marker after the image data)");
  if (frame.components.length !== 1 && frame.components.length !== 3 && frame.components.length !== 4) {
    throw corrupt(`${frame.components.length} colour components are not supported`);
  }
  if (isArithmetic(frame.marker) && isProgressive(frame.marker)) throw corrupt("progressive arithmetic-coded JPEG is not supported");
}

/** Structure checks, then the metadata we carry over. */
export function checkedJpeg(b: Uint8Array): { orientation: number; icc?: Uint8Array } {
  checkJpegStructure(parseJpeg(b));
  return { orientation: jpegOrientation(b), icc: rgbIcc(jpegIcc(b)) };
}

export async function decodeJpegFile(b: Uint8Array): Promise<JpegFile> {
  const s = parseJpeg(b);
  checkJpegStructure(s);
  const frame = s.frame as JpegFrame;
  // Big files are decoded band by band: MozJPEG's whole-image heap would not fit
  // a Worker. CMYK takes the same road (MozJPEG cannot output it as RGBA).
  // Arithmetic coding too: MozJPEG's build cannot decode it, our reader can.
  const banded = frame.width * frame.height > STREAM_PIXELS || frame.components.length === 4 || isArithmetic(frame.marker);
  const pixels = banded ? await decodeLargeJpeg(b) : await decodeJpeg(b);
  return { pixels, orientation: jpegOrientation(b), icc: jpegIcc(b) };
}
