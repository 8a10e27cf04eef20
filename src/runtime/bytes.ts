// Byte arrays joined and streams read within a limit: one copy for every
// engine, since a body read without a limit is how one tenant fills the
// isolate (the model server's answer, a page's resources).

/** Concatenates byte arrays into one. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Reads a stream whole if it holds at most `limit` bytes and `admit` takes
 * every chunk (a budget several reads share counts there, chunk by chunk, so
 * reads running side by side stop as soon as their sum passes it). Otherwise
 * the stream is cancelled at once and the answer is null: what was read is
 * dropped, never kept whole.
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  admit: (chunkBytes: number) => boolean = () => true,
): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit || !admit(value.byteLength)) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  return concat(parts);
}
