// Standard Webhooks signing (docs/reference/webhooks.md, Signing and verifying): the secret is `whsec_`
// + Base64 of 32 random bytes; the signature is `v1,` + Base64 of
// HMAC-SHA256(key = the decoded secret, "<msg id>.<timestamp>.<raw body>").
// Several signatures travel space-separated in one header (rotation window).
// `verifyWebhook` is the receiver's side; we use it in tests and document it.
import { constantTimeEqual, fromBase64, toBase64 } from "../secrets/encoding";

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
/** Receivers reject timestamps more than 300 s from their clock (docs/reference/webhooks.md). */
export const TIMESTAMP_TOLERANCE_S = 300;

const encoder = new TextEncoder();

export function generateSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The HMAC key bytes of a secret; reference libraries accept it with or without the prefix. */
export function secretKeyBytes(secret: string): Uint8Array {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (b64.length === 0) throw new Error("empty webhook secret");
  return fromBase64(b64);
}

async function hmac(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", secretKeyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

function assertTimestamp(timestamp: number | string): number {
  const s = String(timestamp);
  if (!/^\d{1,12}$/.test(s)) throw new Error(`invalid webhook timestamp: ${s}`);
  return Number(s);
}

/** One `v1,<base64>` signature of a message. */
export async function sign(secret: string, msgId: string, timestamp: number | string, body: string): Promise<string> {
  const ts = assertTimestamp(timestamp);
  return `v1,${toBase64(await hmac(secret, `${msgId}.${ts}.${body}`))}`;
}

/** The Webhook-Signature header: one signature per secret, space-separated. */
export async function signatureHeader(secrets: readonly string[], msgId: string, timestamp: number, body: string): Promise<string> {
  const parts = await Promise.all(secrets.map((s) => sign(s, msgId, timestamp, body)));
  return parts.join(" ");
}

export interface WebhookHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

export type VerifyResult = { ok: true } | { ok: false; reason: "missing_headers" | "bad_timestamp" | "stale" | "no_match" };

/**
 * Receiver-side check: headers present, integer timestamp within tolerance of
 * `nowSeconds`, and any `v1` entry matching the expected signature in
 * constant time. Other schemes (`v1a`, `v2`) are ignored, as the spec says.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<VerifyResult> {
  if (!headers.id || !headers.timestamp || !headers.signature) return { ok: false, reason: "missing_headers" };
  let ts: number;
  try {
    ts = assertTimestamp(headers.timestamp);
  } catch {
    return { ok: false, reason: "bad_timestamp" };
  }
  if (Math.abs(nowSeconds - ts) > TIMESTAMP_TOLERANCE_S) return { ok: false, reason: "stale" };
  const expected = await sign(secret, headers.id, ts, body);
  let match = false;
  for (const candidate of headers.signature.split(" ")) {
    if (candidate.startsWith("v1,") && constantTimeEqual(candidate, expected)) match = true;
  }
  return match ? { ok: true } : { ok: false, reason: "no_match" };
}
