import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

// The OCR Worker bundled as wrangler would deploy it, for the test pool's
// auxiliary worker (miniflare runs JavaScript, not TypeScript, for those).
const OUT = resolve(".wrangler/ocr-worker");

/** Bundles the OCR Worker into .wrangler/ocr-worker and answers miniflare's module list for it. */
export function buildOcrWorker() {
  const wrangler = resolve("node_modules/wrangler/bin/wrangler.js");
  rmSync(OUT, { recursive: true, force: true });
  execFileSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", OUT, "-c", "workers/ocr/wrangler.toml"], { stdio: "pipe" });
  const type = (/** @type {string} */ f) => (f.endsWith(".wasm") ? "CompiledWasm" : f.endsWith(".bin") ? "Data" : f.endsWith(".js") ? "ESModule" : null);
  const files = readdirSync(OUT).filter((f) => type(f));
  const main = files.find((f) => f === "ocr-worker.js");
  return [main, ...files.filter((f) => f !== main)].map((f) => ({ type: type(f), path: join(OUT, f) }));
}
