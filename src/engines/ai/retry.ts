import { AiError } from "./types";

// One retry, after a short pause, when a model call failed in a way another
// attempt may fix (429, 5xx, a dropped connection, a timeout). Pure policy
// plus a small runner, so tests drive it without waiting.

export function shouldRetry(err: unknown, attempt: number): boolean {
  return attempt === 1 && err instanceof AiError && err.retryable;
}

export async function withOneRetry<T>(
  attempt: (n: number) => Promise<T>,
  backoffMs: number,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  try {
    return await attempt(1);
  } catch (err) {
    if (!shouldRetry(err, 1)) throw err;
    await sleep(backoffMs);
    return attempt(2);
  }
}
