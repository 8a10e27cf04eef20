import { base64Url } from "../auth/api-keys";
import type { Env } from "../env";

// Expiring links: HMAC-SHA256 over "<key>\n<expires>" with FILES_SIGNING_SECRET
// (falling back to JWT_SECRET), carried as ?expires=<unix>&sig=<base64url>.

async function hmac(env: Env, message: string): Promise<string> {
  const secret = env.FILES_SIGNING_SECRET || env.JWT_SECRET || "";
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return base64Url(new Uint8Array(mac));
}

export async function signKey(env: Env, key: string, expires: number): Promise<string> {
  return hmac(env, `${key}\n${expires}`);
}

export type SignatureCheck = "valid" | "invalid" | "expired";

export async function checkSignature(env: Env, key: string, expires: string | null, sig: string | null): Promise<SignatureCheck> {
  if (!expires || !sig || !/^\d+$/.test(expires)) return "invalid";
  const expected = await signKey(env, key, Number(expires));
  if (!timingSafeEqual(expected, sig)) return "invalid";
  return Number(expires) * 1000 <= Date.now() ? "expired" : "valid";
}

export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
