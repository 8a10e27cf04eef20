import { LIMITS } from "../../config";
import { EngineError } from "../errors";
import { readZip } from "../zip";
import type { Asset } from "./network";

// Files uploaded beside an HTML document (style sheets, images, fonts),
// served to the page by name (network.ts). Given as separate parts or as one
// ZIP whose paths are kept ("img/logo.png").

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
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  json: "application/json",
  txt: "text/plain",
};

/** At most this many bytes of assets, uploaded files and unzipped entries together. */
export const MAX_ASSET_BYTES = 50 * 1024 * 1024;

export function assetType(name: string): string {
  return TYPES[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

export function assetMap(files: { name: string; data: Uint8Array }[], zips: Uint8Array[]): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  let total = 0;
  const add = (name: string, data: Uint8Array) => {
    total += data.length;
    if (total > MAX_ASSET_BYTES) throw new EngineError("too_large", `The assets exceed ${MAX_ASSET_BYTES / 1024 / 1024} MiB unpacked.`);
    assets.set(name.replace(/^\.?\//, ""), { data, type: assetType(name) });
  };
  for (const f of files) add(f.name, f.data);
  for (const zip of zips) {
    // The ZIP reader refuses a package whose entries would pass what is left
    // of the cap before inflating any, and stops an entry the moment it
    // inflates past its declared size (zip.ts): a bomb never expands here.
    const room = Math.min(LIMITS.zipInflatedBytes, MAX_ASSET_BYTES - total);
    let entries: Map<string, Uint8Array>;
    try {
      entries = readZip(zip, { maxTotalBytes: room });
    } catch (err) {
      // Too big is a 413 for the HTML tools; anything else wrong with the ZIP is the caller's to fix (422).
      const message = err instanceof EngineError ? err.message.replace(/The ZIP (package|entry)/, "The assets ZIP") : "The assets ZIP could not be read.";
      throw new EngineError(err instanceof EngineError && err.kind === "too_large" ? "too_large" : "invalid_input", message);
    }
    for (const [name, data] of entries) add(name, data);
  }
  return assets;
}
