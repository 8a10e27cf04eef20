import { LIMITS } from "../../config";
import { EngineError } from "../errors";
import { inflateEntry, type ZipEntry, zipDirectory } from "../zip";
import { assetSetProblem, MAX_ASSET_BYTES, MAX_ASSET_COUNT, normaliseAssetName } from "./asset-names";
import type { Asset } from "./network";

// Files uploaded beside an HTML document (style sheets, images, fonts),
// served to the page by name (network.ts). Given as separate parts (the
// `files` field, Gotenberg's convention) or as one ZIP whose paths are kept
// ("img/logo.png"), or both: they are one set, so a name given twice is
// refused wherever the two copies came from (asset-names.ts).

export { MAX_ASSET_BYTES, MAX_ASSET_COUNT } from "./asset-names";

const TYPES: Record<string, string> = {
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  html: "text/html",
  htm: "text/html",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  json: "application/json",
  xml: "application/xml",
  txt: "text/plain",
};

export function assetType(name: string): string {
  return TYPES[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

interface Pending {
  name: string;
  size: number;
  read: () => Uint8Array;
}

/** A ZIP's file entries, sizes as declared; nothing is inflated yet. */
function zipEntries(zip: Uint8Array): Pending[] {
  let entries: ZipEntry[];
  try {
    // The reader refuses a package whose declared sizes pass the cap before
    // inflating any, and stops an entry the moment it inflates past its
    // declared size (zip.ts): a bomb never expands here.
    entries = zipDirectory(zip, { maxTotalBytes: Math.min(LIMITS.zipInflatedBytes, MAX_ASSET_BYTES), maxEntries: MAX_ASSET_COUNT });
  } catch (err) {
    throw assetsZipError(err);
  }
  return entries.map((e) => ({ name: e.name, size: e.size, read: () => inflateEntry(zip, e) }));
}

/** Too big is a 413 for the HTML tools; anything else wrong with the ZIP is the caller's to fix (422). */
function assetsZipError(err: unknown): EngineError {
  const message = err instanceof EngineError ? err.message.replace(/The ZIP (package|entry)/, "The assets ZIP") : "The assets ZIP could not be read.";
  return new EngineError(err instanceof EngineError && err.kind === "too_large" ? "too_large" : "invalid_input", message);
}

/**
 * The assets by served name. Names, count and bytes of the parts and of every
 * ZIP entry together are checked before anything is inflated.
 */
export function assetMap(files: { name: string; data: Uint8Array }[], zips: Uint8Array[]): Map<string, Asset> {
  const pending: Pending[] = files.map((f) => ({ name: f.name, size: f.data.length, read: () => f.data }));
  for (const zip of zips) pending.push(...zipEntries(zip));
  const problem = assetSetProblem(pending);
  if (problem) throw new EngineError(problem.kind, problem.message);
  const assets = new Map<string, Asset>();
  for (const p of pending) {
    const named = normaliseAssetName(p.name);
    if (!named.ok) continue; // assetSetProblem refused these already
    let data: Uint8Array;
    try {
      data = p.read();
    } catch (err) {
      throw assetsZipError(err);
    }
    assets.set(named.name, { data, type: assetType(named.name) });
  }
  return assets;
}
