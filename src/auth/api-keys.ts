// API key secrets: `dt_live_` + 32 random bytes in base64url. Only the
// SHA-256 hash is stored; the prefix shown to users is the first 12
// characters and an ellipsis.
import { toBase64Url } from "../secrets/encoding";

export const KEY_PREFIX = "dt_live_";

export function generateKeySecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return KEY_PREFIX + toBase64Url(bytes);
}

export async function hashKeySecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function displayPrefix(secret: string): string {
  return `${secret.slice(0, 12)}…`;
}
