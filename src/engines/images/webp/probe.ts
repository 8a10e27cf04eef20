// What the WebP band roads did, for tests: the Worker runs in the test's
// isolate, and local workerd never fails on memory, so an output check alone
// passes whichever road ran. Counters only grow; tests compare before/after.

export const webpBandProbe = {
  /** Lossy WebPs read in bands (webp/band-source.ts). */
  bandedReads: 0,
  /** Lossless WebPs read in bands (the same source, rows handed out by libwebp's VP8L decoder). */
  losslessReads: 0,
  /**
   * Files written from YUV planes (webp/band-writer.ts); how many of them
   * kept libwebp's tokens partly in the picture's encoded rows (the heap cap
   * reached), how many of those then coded their last rows without tokens
   * (the spent rows ran short), and how many fell back to libwebp's
   * low-memory encoder.
   */
  planeWrites: 0,
  /** Of those, files whose planes were a JPEG's own YCbCr (no RGB in between). */
  ycbcrWrites: 0,
  spentRowWrites: 0,
  directRowWrites: 0,
  lowMemoryWrites: 0,
  /** The largest heap one of our instances reached, in bytes. */
  largestHeap: 0,
};

export function noteHeap(bytes: number): void {
  if (bytes > webpBandProbe.largestHeap) webpBandProbe.largestHeap = bytes;
}
