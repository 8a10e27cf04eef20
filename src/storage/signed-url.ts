import type { Env } from "../env";
import { constantTimeEqual, toBase64Url } from "../secrets/encoding";
import { keyFor } from "../secrets/keys";

// Expiring links: HMAC-SHA256 over "<key>\n<expires>" under the file-links
// key (derived from FILES_SIGNING_SECRET, or JWT_SECRET; secrets/keys.ts),
// carried as ?expires=<unix>&sig=<base64url>.

export async function signKey(env: Env, key: string, expires: number): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(env, "file-links"), new TextEncoder().encode(`${key}\n${expires}`));
  return toBase64Url(new Uint8Array(mac));
}

export type SignatureCheck = "valid" | "invalid" | "expired";

export async function checkSignature(env: Env, key: string, expires: string | null, sig: string | null): Promise<SignatureCheck> {
  if (!expires || !sig || !/^\d+$/.test(expires)) return "invalid";
  const expected = await signKey(env, key, Number(expires));
  if (!constantTimeEqual(expected, sig)) return "invalid";
  return Number(expires) * 1000 <= Date.now() ? "expired" : "valid";
}
