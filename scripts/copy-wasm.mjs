// Copies the WASM binaries our engines import into wasm/, so the glue code in
// node_modules and the binary we bundle always come from the same install.
// Workers forbid compiling WASM from bytes at run time, so each binary is
// imported statically as a CompiledWasm module (see wrangler.toml rules).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mupdfFactorySource, mupdfGlueSource } from "./mupdf-factory.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const nm = join(root, "node_modules");
const out = join(root, "wasm");

const files = {
  "mupdf-wasm.wasm": "mupdf/dist/mupdf-wasm.wasm",
  "mozjpeg_dec.wasm": "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm",
  "mozjpeg_enc.wasm": "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm",
  "squoosh_png_bg.wasm": "@jsquash/png/codec/pkg/squoosh_png_bg.wasm",
  "squoosh_oxipng_bg.wasm": "@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm",
  "webp_dec.wasm": "@jsquash/webp/codec/dec/webp_dec.wasm",
  "webp_enc_simd.wasm": "@jsquash/webp/codec/enc/webp_enc_simd.wasm",
  "avif_dec.wasm": "@jsquash/avif/codec/dec/avif_dec.wasm",
  "squoosh_resize_bg.wasm": "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm",
};

mkdirSync(out, { recursive: true });
let copied = 0;
for (const [name, rel] of Object.entries(files)) {
  const src = join(nm, rel);
  if (!existsSync(src)) {
    console.error(`copy-wasm: missing ${rel} (is the dependency installed?)`);
    process.exitCode = 1;
    continue;
  }
  copyFileSync(src, join(out, name));
  copied++;
}

// MuPDF.js rewritten as a factory, so a grown instance can be replaced (scripts/mupdf-factory.mjs).
const mupdfJs = join(nm, "mupdf/dist/mupdf.js");
if (existsSync(mupdfJs)) {
  const { version } = JSON.parse(readFileSync(join(nm, "mupdf/package.json"), "utf8"));
  writeFileSync(join(out, "mupdf-factory.js"), mupdfFactorySource(readFileSync(mupdfJs, "utf8"), version));
  // MuPDF's Emscripten glue, beside its binary, throwing MupdfError for C errors.
  writeFileSync(join(out, "mupdf-wasm.js"), mupdfGlueSource(readFileSync(join(nm, "mupdf/dist/mupdf-wasm.js"), "utf8")));
} else {
  console.error("copy-wasm: missing mupdf/dist/mupdf.js (is the dependency installed?)");
  process.exitCode = 1;
}
if (!(await import("./copy-qpdf.mjs")).copyQpdf(nm, out)) process.exitCode = 1; // qpdf (WASM) and its ES-module glue, for Repair PDF
(await import("./copy-ocr.mjs")).copyOcr(); // Tesseract (WASM), its glue and the English model, for OCR (docs/tools/ocr.md)
console.log(`copy-wasm: ${copied} files and the MuPDF factory in wasm/`);
// The web console's script and style, as a module the Worker imports (scripts/console-build.mjs).
await (await import("./console-build.mjs")).buildConsole();
