import { ApiError } from "../../errors";

// Why this engine answers ApiErrors rather than EngineError kinds: its
// failures are not "bad bytes" but a scarce shared browser (503 with
// Retry-After, which an EngineError cannot carry) and a caller's page that
// misbehaves (each with a code of its own). Throwing the final error here
// also gives every caller of the seam (HTML to PDF, preview, Convert
// document) the same answers without a mapping of its own. Each is thrown
// after the debit, so the pipeline refunds it.

export function browserUnavailable(detail: string, retryAfterSeconds: number): ApiError {
  return new ApiError("browser_unavailable", `${detail} Nothing was charged; retry after ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

export const urlRefused = (detail: string): ApiError => new ApiError("url_refused", detail);

export const pageTimeout = (ms: number, what: string): ApiError =>
  new ApiError("page_load_timeout", `${what} did not finish within ${Math.round(ms / 1000)} s; nothing was charged.`);

export const pageTooLarge = (maxBytes: number): ApiError =>
  new ApiError("page_too_large", `The page loaded more than ${Math.round(maxBytes / 1024 / 1024)} MiB of resources; nothing was charged.`);

export const pageHttpError = (status: number): ApiError =>
  new ApiError("page_http_error", `The page answered HTTP ${status} and fail_on_http_status is set; nothing was charged.`);

export const pageScriptFailed = (detail: string): ApiError => new ApiError("page_script_failed", detail);

export const isTimeout = (err: unknown): boolean => err instanceof Error && err.name === "TimeoutError";

export const pageLoadFailed = (detail: string): ApiError => new ApiError("page_load_failed", `The page could not be loaded: ${detail}`);
