import type { Env } from "../env";
import { fromBase64, toBase64 } from "../secrets/encoding";
import { keyFor } from "../secrets/keys";

// Signing secrets at rest. We must be able to sign with them, so they cannot
// be hashed like API keys; instead each is sealed with AES-256-GCM under a key
// derived (HKDF, secrets/keys.ts) from a Worker secret that never enters D1. A leaked database
// alone therefore cannot sign. The endpoint id is the associated data, so a
// sealed secret copied onto another endpoint row does not open.

const FORMAT = "v1";
const encoder = new TextEncoder();

/** `v1.<iv>.<ciphertext>`, both Base64. */
export async function sealSecret(env: Env, endpointId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await keyFor(env, "webhook-secrets");
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(endpointId) }, key, encoder.encode(secret));
  return `${FORMAT}.${toBase64(iv)}.${toBase64(new Uint8Array(ct))}`;
}

export async function openSecret(env: Env, endpointId: string, sealed: string): Promise<string> {
  const [format, iv, ct] = sealed.split(".");
  if (format !== FORMAT || !iv || !ct) throw new Error("unknown sealed-secret format");
  const key = await keyFor(env, "webhook-secrets");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(endpointId) }, key, fromBase64(ct));
  return new TextDecoder().decode(plain);
}
