// The OCR models in wasm/ (scripts/copy-ocr.mjs) are imported as ArrayBuffer
// by wrangler's default Data rule for *.bin.
declare module "*.bin" {
  const data: ArrayBuffer;
  export default data;
}
