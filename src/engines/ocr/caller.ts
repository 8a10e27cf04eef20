import { constantTimeEqual } from "../../secrets/encoding";

// Who may call the OCR Worker. It has no public URL (workers/ocr/wrangler.toml:
// workers_dev and preview_urls off, no routes), so only service bindings of
// the same Cloudflare account reach it. When OCR_SHARED_SECRET is set on both
// Workers, the main Worker sends it on every call and the OCR Worker refuses
// any request without it: a second lock, should a route or workers.dev ever
// be switched on by mistake, or another Worker of the account bind it.

/** The header carrying OCR_SHARED_SECRET from the main Worker to the OCR Worker. */
export const CALLER_HEADER = "x-ocr-caller-secret";

/** The one setting both sides read, declared here because the OCR Worker does not share Env (which extends this). */
export interface OcrCallerEnv {
  OCR_SHARED_SECRET?: string;
}

const secretOf = (env: OcrCallerEnv): string | undefined => env.OCR_SHARED_SECRET?.trim() || undefined;

/** The main Worker's side: the request with the shared secret, when one is configured. */
export function withCallerSecret(request: Request, env: OcrCallerEnv): Request {
  const secret = secretOf(env);
  if (!secret) return request;
  const signed = new Request(request);
  signed.headers.set(CALLER_HEADER, secret);
  return signed;
}

/** The OCR Worker's side: without a configured secret every caller is the binding (there is no other way in). */
export function callerAllowed(request: Request, env: OcrCallerEnv): boolean {
  const secret = secretOf(env);
  if (!secret) return true;
  const sent = request.headers.get(CALLER_HEADER);
  return sent !== null && constantTimeEqual(sent, secret);
}
