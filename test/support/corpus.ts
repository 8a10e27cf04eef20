import { env } from "cloudflare:workers";
import { describe, it } from "vitest";

// Files of the shared corpus inside workerd tests. workerd cannot read the
// filesystem, so vitest.config.ts binds a Node handler
// (test/support/corpus-service.mjs) as the CORPUS service; files are fetched
// lazily and cached for the test file's lifetime.
//
// A fresh clone has no corpus (test/support/corpus-location.mjs): every test
// that reads it is declared with itWithCorpus / describeWithCorpus and skips;
// corpusList and corpusManifest answer [] so module-level code still loads,
// and corpusFile throws, so a test that forgot the wrapper fails loudly.
//
//   const bytes = await corpusFile("qpdf/damaged/bad1.pdf");
//   const names = await corpusList("verapdf/PDFA-1b");        // ["6-1-2-t01-fail-a.pdf", ...]
//   const rows  = await corpusManifest("qpdf");               // MANIFEST.tsv as objects

const BASE = "http://corpus";

export const hasCorpus = env.CORPUS_AVAILABLE === "true";
export const itWithCorpus = it.skipIf(!hasCorpus);
export const describeWithCorpus = describe.skipIf(!hasCorpus);

const cache = new Map<string, Promise<Uint8Array>>();

function service(): Fetcher {
  const binding = (env as unknown as { CORPUS?: Fetcher }).CORPUS;
  if (!binding) throw new Error("CORPUS service binding missing: see vitest.config.ts (miniflare.serviceBindings)");
  return binding;
}

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

async function fetchOk(url: string): Promise<Response> {
  if (!hasCorpus) throw new Error(`no corpus for ${url}: declare this test with itWithCorpus or describeWithCorpus`);
  const res = await service().fetch(url);
  if (!res.ok) throw new Error(`corpus ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** Bytes of one corpus file, path relative to shared/corpus ("pdfjs/broken/issue15590.pdf"). */
export function corpusFile(path: string): Promise<Uint8Array> {
  let hit = cache.get(path);
  if (!hit) {
    hit = fetchOk(`${BASE}/file/${encodePath(path)}`).then(async (r) => new Uint8Array(await r.arrayBuffer()));
    cache.set(path, hit);
  }
  return hit.then((b) => b.slice());
}

export async function corpusText(path: string): Promise<string> {
  return new TextDecoder().decode(await corpusFile(path));
}

/** Files below a corpus folder, recursively, as paths relative to that folder, sorted. */
export async function corpusList(dir: string): Promise<string[]> {
  if (!hasCorpus) return [];
  return (await fetchOk(`${BASE}/list/${encodePath(dir)}`)).json();
}

export type ManifestRow = Record<string, string>;

/** A folder's MANIFEST.tsv, one object per row keyed by the header (quotes kept as written). */
export async function corpusManifest(dir: string): Promise<ManifestRow[]> {
  if (!hasCorpus) return [];
  const [header, ...lines] = (await corpusText(`${dir}/MANIFEST.tsv`)).split(/\r?\n/).filter((l) => l.trim() !== "");
  const keys = header.split("\t");
  return lines.map((line) => {
    const cells = line.split("\t");
    return Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? ""]));
  });
}
