// Seeds the OCR_MODELS bucket of the OCR Worker (workers/ocr/wrangler.toml)
// with the models that are not bundled (src/engines/ocr/languages.ts says
// which), from wasm/, where scripts/copy-ocr.mjs unpacked them from
// node_modules at install: nothing is downloaded.
//   node scripts/ocr-models-seed.mjs --remote          (npm run deploy does this first)
//   node scripts/ocr-models-seed.mjs --local [--persist-to DIR]   (npm run dev's .wrangler/state, or DIR)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { modelKey, OCR_LANGUAGES } from "../src/engines/ocr/languages.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BUCKET = "docapi-ocr-models";

/** @param {{ where: "--remote" | "--local", persistTo?: string, quiet?: boolean }} opts */
export function seedOcrModels({ where, persistTo, quiet = false }) {
  const wrangler = join(root, "node_modules/wrangler/bin/wrangler.js");
  const seeded = [];
  for (const [lang, { home }] of Object.entries(OCR_LANGUAGES)) {
    if (home !== "r2") continue;
    const file = join(root, "wasm", `${lang}.traineddata.bin`);
    if (!existsSync(file)) throw new Error(`ocr-models-seed: ${file} is missing (run node scripts/copy-ocr.mjs)`);
    const args = [
      wrangler,
      "r2",
      "object",
      "put",
      `${BUCKET}/${modelKey(/** @type {never} */ (lang))}`,
      "--file",
      file,
      "-c",
      "workers/ocr/wrangler.toml",
      where,
    ];
    // npm run dev keeps its state in the project's .wrangler/state (wrangler's default beside the first config, wrangler.toml); -c would move it beside workers/ocr/.
    if (where === "--local") args.push("--persist-to", persistTo ?? join(root, ".wrangler", "state"));
    const run = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
    if (run.status !== 0) throw new Error(`ocr-models-seed: ${lang} failed:\n${run.stdout}\n${run.stderr}`);
    seeded.push(lang);
  }
  if (!quiet) console.log(`ocr-models-seed: ${seeded.join(", ")} in ${BUCKET} (${where.slice(2)})`);
  return seeded;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const where = argv.includes("--local") ? "--local" : "--remote";
  const at = argv.indexOf("--persist-to");
  seedOcrModels({ where, persistTo: at >= 0 ? argv[at + 1] : undefined });
}
