// A strip's compressed data turned back into bytes a few rows at a time, so a
// strip of any height never exists decompressed all at once.

export interface ByteStream {
  /** Fills `out` from its start with the next decompressed bytes; fewer only where the data ends. */
  read(out: Uint8Array): number;
}
