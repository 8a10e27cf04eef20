// The names assets are served under, beside the markup at
// http://document.invalid/ (network.ts). A name comes from the caller (a
// multipart filename, a path inside a ZIP), so it is held to one rule for
// both: a relative path of ordinary segments. An absolute path, a drive
// letter, a URL scheme or a ".." segment is refused rather than quietly
// trimmed, so a caller never gets a page that silently misses a file; the
// lookup could not escape the map anyway, but a name the page can never
// reference is a mistake the caller should hear about.

/** Assets per call, file parts and ZIP entries together: each is a request the render answers from memory. */
export const MAX_ASSET_COUNT = 1_000;
/** At most this many bytes of assets, uploaded files and unzipped entries together. */
export const MAX_ASSET_BYTES = 50 * 1024 * 1024;

const MAX_NAME_LENGTH = 512;
// "C:", "c:\" and "https:" alike: a first segment ending in a colon names a drive or a scheme, not a file here.
const DRIVE_OR_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// C0 controls and DEL can never be typed into an href the way they are stored.
const CONTROL = /[\u0000-\u001f\u007f]/;

export type AssetNameResult = { ok: true; name: string } | { ok: false; why: string };

/** The served name of an uploaded asset ("./css\\site.css" -> "css/site.css"), or why it cannot be one. */
export function normaliseAssetName(raw: string): AssetNameResult {
  if (raw.length > MAX_NAME_LENGTH) return { ok: false, why: `is longer than ${MAX_NAME_LENGTH} characters` };
  if (CONTROL.test(raw)) return { ok: false, why: "contains control characters" };
  const path = raw.replace(/\\/g, "/");
  if (path.startsWith("/")) return { ok: false, why: "is an absolute path" };
  if (DRIVE_OR_SCHEME.test(path)) return { ok: false, why: "is an absolute URL or drive path" };
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) return { ok: false, why: "climbs out of its folder (..)" };
  if (segments.length === 0) return { ok: false, why: "is empty" };
  return { ok: true, name: segments.join("/") };
}

export interface AssetProblem {
  kind: "invalid_input" | "too_large";
  message: string;
}

/**
 * What is wrong with a set of assets as a whole, or null: a bad or repeated
 * name (422: which file the page gets would be a guess), too many of them or
 * too many bytes together (413). The same rule runs on the file parts alone
 * when the request is validated and on everything once a ZIP is unpacked.
 */
export function assetSetProblem(assets: readonly { name: string; size: number }[]): AssetProblem | null {
  if (assets.length > MAX_ASSET_COUNT) {
    return { kind: "too_large", message: `${assets.length} assets were given; at most ${MAX_ASSET_COUNT} are served to one page.` };
  }
  const seen = new Set<string>();
  let total = 0;
  for (const a of assets) {
    const named = normaliseAssetName(a.name);
    if (!named.ok) return { kind: "invalid_input", message: `The asset name "${a.name}" ${named.why}; use a relative name such as img/logo.png.` };
    if (seen.has(named.name)) return { kind: "invalid_input", message: `Two assets are named "${named.name}"; give each file its own name.` };
    seen.add(named.name);
    total += a.size;
    if (total > MAX_ASSET_BYTES) return { kind: "too_large", message: `The assets exceed ${MAX_ASSET_BYTES / 1024 / 1024} MiB together (unpacked).` };
  }
  return null;
}
