// Turns MuPDF.js (an ES module that instantiates its WASM once, at import)
// into a factory that makes a fresh, independent instance on each call.
// WebAssembly memory never shrinks, so the Worker replaces a MuPDF instance
// whose heap grew past its bound (src/engines/mupdf/core/loader.ts); the module's
// own top-level state (scratch pointers, finalizer registries, callback
// tables) moves inside the factory so each instance has its own.
//
// The rewrite is mechanical and checked: it fails the install instead of
// producing a factory that misses an export or keeps top-level state.

const INSTANTIATE = 'const libmupdf = await libmupdf_wasm(globalThis["$libmupdf_wasm_Module"]);';
const DEFAULT_EXPORT = "/* default exports */\nexport default {";

// Corrections to MuPDF.js 1.28.1, each applied exactly once or the install fails.
const PATCHES = [
  // Its PDFObject constructor takes a reference on the object, and so does
  // _fromPDFObjectKeep before calling it, while _fromPDFObjectNew wraps a
  // pointer that already carries one. destroy() gives back one, so every
  // object a call touched outlived its document (300,000 newDictionary() +
  // destroy() grew the heap by 33 MB). The constructor now takes ownership of
  // the pointer it is given, and the one caller that passed a borrowed
  // pointer (getTrailer) takes its reference first.
  [
    "\tconstructor(doc, pointer) {\n\t\tsuper(libmupdf._wasm_pdf_keep_obj(pointer));\n\t\tthis._doc = doc;",
    "\tconstructor(doc, pointer) {\n\t\tsuper(pointer);\n\t\tthis._doc = doc;",
  ],
  ["return new PDFObject(this, libmupdf._wasm_pdf_trailer(this.pointer));", "return this._fromPDFObjectKeep(libmupdf._wasm_pdf_trailer(this.pointer));"],
  // StructuredText.walk makes a Font wrapper for every character (a
  // reference, a finalizer registration, then a destroy): 45% of a text
  // walk. A walker that sets `skipFonts` gets null instead.
  [
    "let ch_font = new Font(libmupdf._wasm_stext_char_get_font(ch));",
    "let ch_font = walker.skipFonts ? null : new Font(libmupdf._wasm_stext_char_get_font(ch));",
  ],
];

// MuPDF's C errors reach JavaScript as plain Error objects thrown by the
// glue, indistinguishable from our own bugs. The glue copy throws MupdfError
// instead (defined by the factory), so a document MuPDF cannot read is a 4xx
// and a defect of ours stays a 500 (src/engines/mupdf/core/document.ts).
const GLUE_ERROR = /=>\{throw new Error\(([A-Za-z_$]+)\(([A-Za-z_$]+)\)\)\}/g;

// Under nodejs_compat workerd has `process.versions.node`, so the glue takes
// its Node branch and awaits `import("module")` on every start. That await
// waits for a task: an instance shared by every request would then be
// pending across requests, and a request that awaits another's pending start
// hangs for good if that one is cancelled (the runtime kills it as hung).
// We always hand the glue the compiled module (instantiateWasm), so it needs
// none of Node's file reading: the copy never takes that branch, and a start
// completes within the starting request's microtasks
// (test/runtime/shared-starts.test.ts).
const GLUE_NODE_PROBE =
  /([A-Za-z_$]+)="object"==typeof process&&"object"==typeof process\.versions&&"string"==typeof process\.versions\.node&&"renderer"!=process\.type;/g;

/** @param {string} glue mupdf/dist/mupdf-wasm.js */
export function mupdfGlueSource(glue) {
  const found = glue.match(GLUE_ERROR) ?? [];
  if (found.length !== 1) throw new Error(`mupdf-factory: expected one C error throw in the glue, found ${found.length}`);
  const probes = glue.match(GLUE_NODE_PROBE) ?? [];
  if (probes.length !== 1) throw new Error(`mupdf-factory: expected one Node probe in the glue, found ${probes.length}`);
  return glue.replace(GLUE_ERROR, "=>{throw new globalThis.$libmupdf_MupdfError($1($2))}").replace(GLUE_NODE_PROBE, "$1=!1;");
}

/** @param {string} source mupdf/dist/mupdf.js  @param {string} version */
export function mupdfFactorySource(source, version) {
  const start = source.indexOf(INSTANTIATE);
  const defaults = source.indexOf(DEFAULT_EXPORT);
  if (start < 0 || defaults < 0) throw new Error("mupdf-factory: mupdf.js changed shape (instantiation or default export not found)");

  // Kept at module level: the WASM glue import and the Node file-system probe.
  const head = source.slice(0, start).replace('"use strict";\n', "");
  let body = source.slice(start + INSTANTIATE.length, defaults);
  for (const [from, to] of PATCHES) {
    if (body.split(from).length !== 2) throw new Error(`mupdf-factory: a patch does not apply exactly once: ${from.trim().slice(0, 60)}`);
    body = body.replace(from, to);
  }
  if (
    /new PDFObject\((?!null, 0\))/.test(
      body.replace("return new PDFObject(this, ptr);", "").replace("return new PDFObject(this, libmupdf._wasm_pdf_keep_obj(ptr));", ""),
    )
  ) {
    throw new Error("mupdf-factory: a PDFObject is made from a pointer the reference fix does not know about");
  }

  const names = [];
  const local = body.replace(/^export (const|function|class) ([A-Za-z_$][\w$]*)/gm, (_m, kind, name) => {
    names.push(name);
    return `${kind} ${name}`;
  });
  if (/^export /m.test(local)) throw new Error("mupdf-factory: an export form the rewrite does not know");
  if (!names.includes("PDFDocument") || !names.includes("emptyStore")) throw new Error("mupdf-factory: expected exports missing");

  return [
    `// Generated by scripts/mupdf-factory.mjs from mupdf ${version} (dist/mupdf.js): do not edit.`,
    head.trimEnd(),
    "",
    "/** An error raised by MuPDF's C code (a damaged document, a failed allocation). */",
    'export class MupdfError extends Error { constructor(message) { super(message); this.name = "MupdfError"; } }',
    "globalThis.$libmupdf_MupdfError = MupdfError;",
    "",
    "/** A new MuPDF instance; `moduleArg` is Emscripten's Module (instantiateWasm). */",
    "export default async function createMupdf(moduleArg) {",
    '"use strict";',
    "const libmupdf = await libmupdf_wasm(moduleArg);",
    local.trimEnd(),
    `return { ${names.join(", ")} };`,
    "}",
    "",
  ].join("\n");
}
