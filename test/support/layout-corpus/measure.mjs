// The generated set scored per family in Node (npm run bench, or by hand):
// any reader of a PDF (our API over HTTP, pdftotext) is scored by score.ts
// exactly as the workerd test scores it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { join } from "node:path";
import { ensureLayoutCorpus } from "./generate.mjs";

// score.ts imports its neighbours without an extension, as the TypeScript
// build resolves them; Node's own resolver wants the ".ts" written out.
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (err) {
      if (!/^\.\.?\//.test(specifier) || /\.\w+$/.test(specifier)) throw err;
      return next(`${specifier}.ts`, context);
    }
  },
});
const { describe, score, share, sum } = await import("./score.ts");
export { describe, share };

/**
 * Reads every document with `read(bytes, path)` (answers Markdown or text)
 * and sums the scores per family; `families` limits the set.
 */
export async function measureFamilies(read, { families } = {}) {
  const { dir, manifest } = await ensureLayoutCorpus();
  const out = new Map();
  for (const entry of manifest) {
    if (families && !families.includes(entry.family)) continue;
    const path = join(dir, entry.pdf);
    const truth = JSON.parse(readFileSync(join(dir, entry.truth), "utf8"));
    const started = performance.now();
    const text = await read(readFileSync(path), path, entry);
    const ms = performance.now() - started;
    const family = out.get(entry.family) ?? { scores: [], pages: 0, ms: 0, docs: [] };
    const s = score(truth, text);
    family.scores.push(s);
    family.docs.push({ name: entry.name, score: s });
    family.pages += entry.pages;
    family.ms += ms;
    out.set(entry.family, family);
  }
  return [...out].map(([family, f]) => ({ family, pages: f.pages, ms: f.ms, score: sum(f.scores), docs: f.docs }));
}

/** pdftotext's text of a file (`-layout` keeps columns side by side), or null without poppler. */
export function pdftotext(path, layout = false) {
  const r = spawnSync("pdftotext", [...(layout ? ["-layout"] : []), "-enc", "UTF-8", path, "-"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout : null;
}
