import type { Env } from "../env";
import { constantTimeEqual, toBase64Url } from "../secrets/encoding";
import { keyFor } from "../secrets/keys";

// Expiring links: HMAC-SHA256 over "<key>\n<expires>" under the file-links
// key (derived from FILES_SIGNING_SECRET, or JWT_SECRET; secrets/keys.ts),
// carried as ?expires=<unix>&sig=<base64url>.
//
// The object behind such a link is not stored under the key the link names:
// its R2 key replaces the link's <uuid> segment with an HMAC of the whole
// link key (objectKeyOf). Were the bucket reachable some other way (an R2
// custom domain for outputs/ that exposes the whole bucket, an r2.dev URL),
// a link's path would still not lead to its object, so neither the
// signature nor the expiry can be stepped around. The two HMAC inputs can
// never be equal: a signed message starts with the key ("tmp/..."), a name's
// with "object-name\n", and keys hold no control characters (files-route.ts).

const encoder = new TextEncoder();

async function mac(env: Env, message: string): Promise<string> {
  const bytes = await crypto.subtle.sign("HMAC", await keyFor(env, "file-links"), encoder.encode(message));
  return toBase64Url(new Uint8Array(bytes));
}

export function signKey(env: Env, key: string, expires: number): Promise<string> {
  return mac(env, `${key}\n${expires}`);
}

export type SignatureCheck = "valid" | "invalid" | "expired";

export async function checkSignature(env: Env, key: string, expires: string | null, sig: string | null): Promise<SignatureCheck> {
  if (!expires || !sig || !/^\d+$/.test(expires)) return "invalid";
  const expected = await signKey(env, key, Number(expires));
  if (!constantTimeEqual(expected, sig)) return "invalid";
  return Number(expires) * 1000 <= Date.now() ? "expired" : "valid";
}

/**
 * The R2 key of an expiring link's object: tmp/<yyyy>/<mm>/<dd>/<uuid>/<name>
 * is stored as tmp/<yyyy>/<mm>/<dd>/<HMAC>/<name>, so the date prefix (for
 * the lifecycle rule and for looking around) and the download name stay.
 */
export async function objectKeyOf(env: Env, linkKey: string): Promise<string> {
  const name = linkKey.slice(linkKey.lastIndexOf("/") + 1);
  const dir = linkKey.slice(0, linkKey.lastIndexOf("/"));
  const day = dir.slice(0, dir.lastIndexOf("/"));
  return `${day}/${await mac(env, `object-name\n${linkKey}`)}/${name}`;
}
