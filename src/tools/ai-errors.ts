import { AiError } from "../engines/ai/types";
import { ApiError } from "../errors";

/**
 * Runs a model-backed step; a model that failed twice (timeout, 429, 5xx,
 * an oversized or malformed answer) is a 503 `ai_unavailable`, refunded by
 * the pipeline, never a 500.
 */
export async function aiStep<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AiError)
      throw new ApiError("ai_unavailable", `The AI model did not give a usable answer (${err.message}); nothing was charged. Retry later.`);
    throw err;
  }
}
