// `npm run check:cycles`: fails when two folders of src/ import each other at
// run time, directly or through others. A folder is a unit of the code's
// shape (docs/architecture.md): one capability under src/engines/ (its own
// subfolders belong to it), one folder elsewhere; a file directly in src/ is
// a unit of its own. Type-only imports are left out: they vanish from the
// bundle and cannot order module evaluation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(new URL("..", import.meta.url).pathname, "src");

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The unit a file belongs to: engines/<capability> (a file directly in engines/ is its own), <folder>, or a file directly in src/. */
function unitOf(file) {
  const parts = relative(SRC, file).split("/");
  if (parts.length === 1) return parts[0];
  return parts[0] === "engines" ? `engines/${parts[1]}` : parts[0];
}

/** Relative module specifiers a file imports at run time. */
function runtimeImports(text) {
  const out = [];
  // import x from "…", import { a } from "…", export { a } from "…", export * from "…", import "…"
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
  for (const m of text.matchAll(statement)) {
    const spec = m[4] ?? m[5];
    if (!spec.startsWith(".")) continue;
    if (m[2]) continue; // import type / export type
    // import { type A, type B } from "…": every name type-only.
    const names = m[3]?.match(/^\{([^}]*)\}$/s)?.[1];
    if (names?.split(",").every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    out.push(spec);
  }
  return out;
}

function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile() && candidate.endsWith(".ts")) return candidate;
    } catch {
      /* not this one */
    }
  }
  return null; // a .js/.wasm asset or a generated file: not a unit of src/
}

const edges = new Map(); // unit -> Map(unit -> example "a.ts -> b.ts")
for (const file of sourceFiles(SRC)) {
  for (const spec of runtimeImports(readFileSync(file, "utf8"))) {
    const target = resolveSpec(file, spec);
    if (!target?.startsWith(SRC)) continue;
    const [a, b] = [unitOf(file), unitOf(target)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
  }
}

// Strongly connected components (Tarjan): each with more than one unit is a cycle.
let index = 0;
const stack = [];
const info = new Map();
const cycles = [];
function connect(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!info.has(w)) {
      connect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component);
  }
}
for (const v of edges.keys()) if (!info.has(v)) connect(v);

if (cycles.length === 0) {
  console.log(
    `folder-cycles: no runtime import cycle between the ${new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]).size} units of src/`,
  );
  process.exit(0);
}
for (const component of cycles) {
  console.error(`cycle: ${component.sort().join(" <-> ")}`);
  for (const a of component) for (const [b, example] of edges.get(a) ?? []) if (component.includes(b)) console.error(`  ${a} -> ${b}: ${example}`);
}
process.exit(1);
