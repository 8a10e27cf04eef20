import type { Env } from "../env";
import { ApiError } from "../errors";
import { settledCache } from "../runtime/settled-cache";

// Every use of a configured secret gets a key of its own, derived with HKDF
// (RFC 5869, SHA-256) under a label naming the use: a key that leaks from one
// use (a file link's HMAC, a CSRF token) tells nothing about the others.
// The one exception is the dashboard JWT, HS256 under JWT_SECRET itself
// (auth/jwt.ts, docs/reference/accounts-and-keys.md): operators mint those in their own systems.
// A missing secret is a 503 problem naming the variable, never an empty key.

interface Purpose {
  /** The configured secret this use derives from, in order of preference. */
  secrets: readonly (keyof Env)[];
  salt: string;
  info: string;
  algorithm: SubtleCryptoImportKeyAlgorithm;
  usages: readonly string[];
}

const HMAC_SHA256: SubtleCryptoImportKeyAlgorithm = { name: "HMAC", hash: "SHA-256", length: 256 };

const PURPOSES = {
  /** HMAC of a console session's id: its CSRF token (auth/csrf.ts). */
  "session-csrf": { secrets: ["JWT_SECRET"], salt: "docapi/session-csrf", info: "v1", algorithm: HMAC_SHA256, usages: ["sign", "verify"] },
  /** HMAC of expiring file links (storage/signed-url.ts). */
  "file-links": { secrets: ["FILES_SIGNING_SECRET", "JWT_SECRET"], salt: "docapi/file-links", info: "v1", algorithm: HMAC_SHA256, usages: ["sign", "verify"] },
  /**
   * AES-256-GCM sealing webhook signing secrets at rest. Its salt and info are
   * the ones sealed secrets in D1 were written with: changing them would make
   * every stored secret unreadable.
   */
  "webhook-secrets": {
    secrets: ["WEBHOOK_SECRET_KEY", "JWT_SECRET"],
    salt: "docapi/webhook-secrets",
    info: "v1",
    algorithm: { name: "AES-GCM", length: 256 },
    usages: ["encrypt", "decrypt"],
  },
} as const satisfies Record<string, Purpose>;

export type KeyPurpose = keyof typeof PURPOSES;

const encoder = new TextEncoder();
/** Keyed by purpose and secret, so a rotated secret derives afresh. */
const derived = settledCache<CryptoKey>();

async function derive(master: string, p: Purpose): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(master), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: encoder.encode(p.salt), info: encoder.encode(p.info) }, ikm, p.algorithm, false, [
    ...p.usages,
  ]);
}

/** The configured secret a purpose derives from; 503 when none is set. */
function masterSecret(env: Env, purpose: KeyPurpose): string {
  const names = PURPOSES[purpose].secrets;
  for (const name of names) {
    const value = env[name];
    if (typeof value === "string" && value !== "") return value;
  }
  throw new ApiError("service_unavailable", `${names.join(" (or ")}${names.length > 1 ? ")" : ""} is not configured.`);
}

/** The key of one purpose, derived once per isolate and secret (settled-cache.ts says why only a finished key is shared). */
export function keyFor(env: Env, purpose: KeyPurpose): Promise<CryptoKey> {
  const master = masterSecret(env, purpose);
  return derived(`${purpose}\n${master}`, () => derive(master, PURPOSES[purpose]));
}
