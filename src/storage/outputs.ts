import { LIMITS } from "../config";
import type { Env } from "../env";
import { signKey } from "./signed-url";
import { settingsOf } from "../settings";

export interface OutputFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export interface StoredOutput {
  key: string;
  url: string;
  size: number;
  /** Set for temporary outputs (compress PDF): ISO-8601. */
  expiresAt?: string;
}

/** Removes path separators, control characters and quotes from a download name. */
export function safeFilename(name: string, fallback = "file"): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, "_")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 180);
  return cleaned || fallback;
}

/** The upload's name without its .pdf ending, made safe ("document" when nothing is left). */
export function pdfStem(filename: string): string {
  return safeFilename(filename.replace(/\.pdf$/i, ""), "document");
}

/** "<stem>_<suffix>.pdf", the name of a result derived from an uploaded PDF. */
export function derivedPdfName(filename: string, suffix: string): string {
  return `${pdfStem(filename)}_${suffix}.pdf`;
}

/** Output key: outputs/<yyyy>/<mm>/<dd>/<uuid>/<filename>, or tmp/... for expiring files. */
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

export async function storeOutput(env: Env, origin: string, file: OutputFile, opts: { temporary?: boolean } = {}): Promise<StoredOutput> {
  const temporary = opts.temporary ?? false;
  const key = outputKey(file.filename, temporary);
  await env.FILES.put(key, file.data, {
    httpMetadata: {
      contentType: file.contentType,
      contentDisposition: `attachment; filename="${safeFilename(file.filename)}"`,
    },
  });
  if (!temporary) return { key, url: publicBase(env, origin) + encodeKey(key), size: file.data.byteLength };

  // Expiring links are always served by the Worker, which checks the signature.
  const expires = Math.floor(Date.now() / 1000) + LIMITS.tempUrlSeconds;
  const sig = await signKey(env, key, expires);
  return {
    key,
    url: `${origin}/files/${encodeKey(key)}?expires=${expires}&sig=${sig}`,
    size: file.data.byteLength,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}
