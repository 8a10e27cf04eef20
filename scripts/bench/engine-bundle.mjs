// Bundles a small Node entry that imports the engine's TypeScript directly
// (esbuild, installed with wrangler), with .wasm imports turned into compiled
// modules as the Worker gets them. The image benchmarks run such bundles in
// a child `node --expose-gc` to sample live memory, which workerd cannot report.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Bundles `entry` to `outfile`; answers false when esbuild is not installed. */
export async function bundleEngineEntry(entry, outfile) {
  let build;
  try {
    ({ build } = await import("esbuild"));
  } catch {
    return false;
  }
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "error",
    nodePaths: [join(ROOT, "node_modules")],
    banner: { js: `import { createRequire as __cr } from "node:module"; const require = __cr(${JSON.stringify(join(ROOT, "package.json"))});` },
    plugins: [
      {
        name: "wasm-module",
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, (a) => ({ path: join(a.resolveDir, a.path), namespace: "wasm" }));
          b.onLoad({ filter: /.*/, namespace: "wasm" }, (a) => ({
            contents: `import fs from "node:fs"; export default new WebAssembly.Module(fs.readFileSync(${JSON.stringify(a.path)}));`,
            loader: "js",
          }));
        },
      },
    ],
  });
  return true;
}

/**
 * The live-memory probe every entry installs: GC, then heap + ArrayBuffers
 * (WASM memories included). Entries read their input as a view of the file's
 * buffer: a copy would leave the original as garbage whose backing store V8
 * frees lazily, inflating the baseline by the input's size.
 */
export const LIVE_PROBE = `const live = () => { globalThis.gc(); const m = process.memoryUsage(); return m.heapUsed + m.external; };`;
