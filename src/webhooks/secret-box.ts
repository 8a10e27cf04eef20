import type { Env } from "../env";
import { ApiError } from "../errors";
import { fromBase64, toBase64 } from "./signing";

// Signing secrets at rest. We must be able to sign with them, so they cannot
// be hashed like API keys; instead each is sealed with AES-256-GCM under a key
// derived (HKDF) from a Worker secret that never enters D1. A leaked database
// alone therefore cannot sign. The endpoint id is the associated data, so a
// sealed secret copied onto another endpoint row does not open.

const FORMAT = "v1";
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** WEBHOOK_SECRET_KEY, or JWT_SECRET as a fallback (a different HKDF label keeps the keys apart). */
function masterSecret(env: Env): string {
  const secret = env.WEBHOOK_SECRET_KEY || env.JWT_SECRET;
  if (!secret) throw new ApiError("service_unavailable", "WEBHOOK_SECRET_KEY (or JWT_SECRET) is not configured.");
  return secret;
}

function keyFor(master: string): Promise<CryptoKey> {
  let key = keys.get(master);
  if (!key) {
    key = (async () => {
      const ikm = await crypto.subtle.importKey("raw", encoder.encode(master), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: encoder.encode("docapi/webhook-secrets"), info: encoder.encode(FORMAT) },
        ikm,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    key.catch(() => keys.delete(master));
    keys.set(master, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>`, both Base64. */
export async function sealSecret(env: Env, endpointId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await keyFor(masterSecret(env));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(endpointId) }, key, encoder.encode(secret));
  return `${FORMAT}.${toBase64(iv)}.${toBase64(new Uint8Array(ct))}`;
}

export async function openSecret(env: Env, endpointId: string, sealed: string): Promise<string> {
  const [format, iv, ct] = sealed.split(".");
  if (format !== FORMAT || !iv || !ct) throw new Error("unknown sealed-secret format");
  const key = await keyFor(masterSecret(env));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(endpointId) },
    key,
    fromBase64(ct),
  );
  return new TextDecoder().decode(plain);
}
