import { LIMITS } from "../config";
import { ByteParts, type FileBytes } from "../engines/bytes";
import type { Env } from "../env";
import { objectKeyOf, signKey } from "./signed-url";
import { settingsOf } from "../settings";

export interface OutputFile {
  filename: string;
  contentType: string;
  data: FileBytes;
}

export interface StoredOutput {
  /** The key the URL names: outputs/... (also the R2 key) or tmp/... */
  key: string;
  /** The R2 key; for an expiring output it differs from `key` (storage/signed-url.ts, objectKeyOf). */
  objectKey: string;
  url: string;
  size: number;
  /** Set for temporary outputs (compress PDF): ISO-8601. */
  expiresAt?: string;
}

/** Longest download name we keep, in characters; R2 keys may be 1,024 bytes, and this leaves room for the prefix at four bytes a character. */
const MAX_NAME_CHARS = 180;

// Characters no download name keeps: controls, path and shell-special
// punctuation, and halves of a surrogate pair (a name cut or forged mid-pair
// cannot be percent-encoded).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f"\\/:*?<>|]+|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A name safe as the last segment of a stored key and as a download name:
 * unsafe characters become "_", leading dots go (no ".", ".." or hidden
 * files), and a long name is cut by characters, keeping its extension.
 * Dots inside a name ("report..v2.pdf") are ordinary characters.
 */
export function safeFilename(name: string, fallback = "file"): string {
  let cleaned = name
    .replace(UNSAFE, "_")
    .replace(/^[.\s]+/, "")
    .trim();
  const chars = [...cleaned];
  if (chars.length > MAX_NAME_CHARS) {
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? "";
    cleaned =
      chars
        .slice(0, MAX_NAME_CHARS - ext.length)
        .join("")
        .trimEnd() + ext;
  }
  return cleaned || fallback;
}

/**
 * RFC 6266 Content-Disposition: an ASCII `filename` for old clients (accents
 * dropped, anything else non-ASCII as "_") and `filename*` with the exact
 * UTF-8 name. HTTP header values cannot carry raw Unicode.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === filename ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** The upload's name without its .pdf ending, made safe ("document" when nothing is left). */
export function pdfStem(filename: string): string {
  return safeFilename(filename.replace(/\.pdf$/i, ""), "document");
}

/** "<stem>_<suffix>.pdf", the name of a result derived from an uploaded PDF. */
export function derivedPdfName(filename: string, suffix: string): string {
  return `${pdfStem(filename)}_${suffix}.pdf`;
}

/** Output key: outputs/<yyyy>/<mm>/<dd>/<uuid>/<filename>, or tmp/... for expiring files (the key their link names). */
export function outputKey(filename: string, temporary: boolean, at = new Date()): string {
  const day = at.toISOString().slice(0, 10).replace(/-/g, "/");
  return `${temporary ? "tmp" : "outputs"}/${day}/${crypto.randomUUID()}/${safeFilename(filename)}`;
}

function publicBase(env: Env, origin: string): string {
  const base = settingsOf(env).PUBLIC_FILES_BASE_URL?.trim();
  if (base) return base.endsWith("/") ? base : `${base}/`;
  return `${origin}/files/`;
}

function encodeKey(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

/**
 * The key an output URL of this deployment names (the inverse of the URLs
 * storeOutput answers, under PUBLIC_FILES_BASE_URL or the Worker's own
 * /files/), or null for any other URL.
 */
export function keyOfOutputUrl(env: Env, origin: string, raw: string): string | null {
  const path = raw.split(/[?#]/, 1)[0];
  for (const base of new Set([publicBase(env, origin), `${origin}/files/`])) {
    if (!path.startsWith(base)) continue;
    try {
      const key = path.slice(base.length).split("/").map(decodeURIComponent).join("/");
      return /^(outputs|tmp)\/./.test(key) ? key : null;
    } catch {
      return null;
    }
  }
  return null;
}

export async function storeOutput(env: Env, origin: string, file: OutputFile, opts: { temporary?: boolean } = {}): Promise<StoredOutput> {
  const temporary = opts.temporary ?? false;
  const key = outputKey(file.filename, temporary);
  const objectKey = temporary ? await objectKeyOf(env, key) : key;
  await env.FILES.put(objectKey, file.data instanceof ByteParts ? file.data.stream() : file.data, {
    httpMetadata: {
      contentType: file.contentType,
      contentDisposition: contentDisposition(safeFilename(file.filename)),
    },
  });
  if (!temporary) return { key, objectKey, url: publicBase(env, origin) + encodeKey(key), size: file.data.byteLength };

  // Expiring links are always the Worker's, whatever PUBLIC_FILES_BASE_URL
  // says: only the Worker checks the signature and the expiry, and only it
  // knows which object a link names.
  const expires = Math.floor(Date.now() / 1000) + LIMITS.tempUrlSeconds;
  const sig = await signKey(env, key, expires);
  return {
    key,
    objectKey,
    url: `${origin}/files/${encodeKey(key)}?expires=${expires}&sig=${sig}`,
    size: file.data.byteLength,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}
