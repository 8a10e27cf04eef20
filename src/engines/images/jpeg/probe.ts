// How the JPEG band reader handed bands to MozJPEG, for tests: an output
// check passes whichever way ran. Counters only grow; tests compare before
// and after.

export const jpegBandProbe = {
  /** Bands sent as the file's own entropy-coded bits (band-pixels.ts, copiedBandPixels). */
  copiedBands: 0,
  /** DC tables of copied bands given a spare code for a magnitude the file never used. */
  widenedTables: 0,
  /** Bands coded again from their coefficients (bandPixels: progressive, arithmetic, CMYK, restarts off the band edges). */
  codedBands: 0,
};
