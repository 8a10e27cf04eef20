// Output files as engines hand them to storage: one buffer, or the pieces it
// was written in. A big output (a PNG's IDAT blocks, a TIFF's strips) joined
// into one buffer would be held twice at the moment of joining, so storage
// streams the pieces to R2 instead.

import { concat } from "../runtime/bytes";

export class ByteParts {
  readonly length: number;

  constructor(readonly parts: readonly Uint8Array[]) {
    let n = 0;
    for (const p of parts) n += p.length;
    this.length = n;
  }

  get byteLength(): number {
    return this.length;
  }

  /** The pieces as one stream of known length (R2 needs the length up front). */
  stream(): ReadableStream<Uint8Array> {
    const { readable, writable } = new FixedLengthStream(this.length);
    const writer = writable.getWriter();
    // Written as the reader pulls: writes wait for room, so nothing is copied ahead.
    const write = async () => {
      for (const p of this.parts) await writer.write(p);
      await writer.close();
    };
    write().catch((err) => writer.abort(err).catch(() => undefined));
    return readable;
  }
}

/** What writers answer. */
export type FileBytes = Uint8Array | ByteParts;

/** One buffer, for callers that need the bytes together (a copy only when they are in pieces). */
export function contiguous(b: FileBytes): Uint8Array {
  return b instanceof ByteParts ? concat(b.parts) : b;
}
