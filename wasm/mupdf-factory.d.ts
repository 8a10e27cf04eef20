// wasm/mupdf-factory.js is generated at install (scripts/mupdf-factory.mjs):
// MuPDF.js as a factory of independent instances, with the package's exports.
declare const createMupdf: (moduleArg: object) => Promise<typeof import("mupdf")>;
export default createMupdf;

/** What MuPDF's C code throws (a damaged document, a failed allocation). */
export declare class MupdfError extends Error {}
