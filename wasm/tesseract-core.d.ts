// wasm/tesseract-core.js is generated at install (scripts/copy-ocr.mjs): the
// Emscripten glue of tesseract-wasm, as a factory taking Emscripten's Module.
import type { TesseractLib } from "../src/engines/ocr/tesseract-lib";

declare const createTesseract: (moduleArg: object) => Promise<TesseractLib>;
export default createTesseract;
