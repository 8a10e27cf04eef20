import { EngineError } from "../../errors";

/**
 * A JPEG reader's own error (a bad Huffman code, a coefficient past the
 * block, a missing table) as the 422 every JPEG road answers; an engine
 * error passes as it is.
 */
export function damagedJpeg(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  return new EngineError("corrupt", `The JPEG could not be decoded: ${err instanceof Error ? err.message : "damaged data"}.`);
}
