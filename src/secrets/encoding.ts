// Byte encodings and the comparison every credential check shares: API keys,
// file links, webhook signatures, the operator token. One implementation
// each, so a fix (or a timing leak) is never in one copy only.

export function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Throws on text that is not Base64 (atob's own error). */
export function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** RFC 4648 §5, unpadded: for values carried in URLs and API keys. */
export const toBase64Url = (bytes: Uint8Array): string => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/**
 * Compares two secrets in a time that depends on their lengths only, never on
 * where they first differ, so a caller cannot find a valid value byte by byte.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
