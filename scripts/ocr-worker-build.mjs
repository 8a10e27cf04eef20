import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

// The OCR Worker bundled as wrangler would deploy it, for the test pool's
// auxiliary worker (miniflare runs JavaScript, not TypeScript, for those).
// One folder per vitest process: two runs at once (a developer's and an
// editor's) must not rebuild the files the other's pool is loading.
const PARENT = resolve(".wrangler");
const OUT = join(PARENT, `ocr-worker-${process.pid}`);

const alive = (/** @type {number} */ pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Bundles the OCR Worker into .wrangler/ocr-worker-<pid> and answers miniflare's module list for it. */
export function buildOcrWorker() {
  const wrangler = resolve("node_modules/wrangler/bin/wrangler.js");
  // Folders of runs that have ended.
  if (existsSync(PARENT)) {
    for (const d of readdirSync(PARENT)) {
      const pid = /^ocr-worker-(\d+)$/.exec(d)?.[1];
      if (pid && !alive(Number(pid))) rmSync(join(PARENT, d), { recursive: true, force: true });
    }
  }
  rmSync(OUT, { recursive: true, force: true });
  execFileSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", OUT, "-c", "workers/ocr/wrangler.toml"], { stdio: "pipe" });
  const type = (/** @type {string} */ f) => (f.endsWith(".wasm") ? "CompiledWasm" : f.endsWith(".bin") ? "Data" : f.endsWith(".js") ? "ESModule" : null);
  const files = readdirSync(OUT).filter((f) => type(f));
  const main = files.find((f) => f === "ocr-worker.js");
  return [main, ...files.filter((f) => f !== main)].map((f) => ({ type: type(f), path: join(OUT, f) }));
}
