import { env } from "cloudflare:workers";

// Files of ../shared/corpus inside workerd tests. workerd cannot read the
// filesystem, so vitest.config.ts binds a Node handler
// (test/support/corpus-service.mjs) as the CORPUS service; files are fetched
// lazily and cached for the test file's lifetime.
//
//   const bytes = await corpusFile("qpdf/damaged/bad1.pdf");
//   const names = await corpusList("verapdf/PDFA-1b");        // ["6-1-2-t01-fail-a.pdf", ...]
//   const rows  = await corpusManifest("qpdf");               // MANIFEST.tsv as objects

const BASE = "http://corpus";
const cache = new Map<string, Promise<Uint8Array>>();

function service(): Fetcher {
  const binding = (env as unknown as { CORPUS?: Fetcher }).CORPUS;
  if (!binding) throw new Error("CORPUS service binding missing: see vitest.config.ts (miniflare.serviceBindings)");
  return binding;
}

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

async function fetchOk(url: string): Promise<Response> {
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
  return (await fetchOk(`${BASE}/list/${encodePath(dir)}`)).json();
}

export type ManifestRow = Record<string, string>;

/** A folder's MANIFEST.tsv, one object per row keyed by the header (quotes kept as written). */
export async function corpusManifest(dir: string): Promise<ManifestRow[]> {
  const [header, ...lines] = (await corpusText(`${dir}/MANIFEST.tsv`)).split(/\r?\n/).filter((l) => l.trim() !== "");
  const keys = header.split("\t");
  return lines.map((line) => {
    const cells = line.split("\t");
    return Object.fromEntries(keys.map((k, i) => [k, cells[i] ?? ""]));
  });
}
