// wasm/qpdf-factory.js is generated at install (scripts/copy-qpdf.mjs): qpdf's
// Emscripten glue as an ES module that instantiates from a precompiled module.
export interface QpdfModuleArg {
  /** Instantiates the precompiled qpdf.wasm with Emscripten's imports. */
  instantiateCompiled(imports: WebAssembly.Imports): Promise<{ instance: WebAssembly.Instance; module: WebAssembly.Module }>;
  /** The heap may not grow past this many bytes (allocation then fails inside qpdf). */
  maxHeapBytes?: number;
  print(text: string): void;
  printErr(text: string): void;
}

export interface QpdfInstance {
  /** Runs qpdf's command line; answers its exit code (0 ok, 2 errors, 3 warnings). */
  callMain(args: string[]): number;
  FS: {
    writeFile(path: string, data: Uint8Array): void;
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
  };
}

declare const createQpdf: (moduleArg: QpdfModuleArg) => Promise<QpdfInstance>;
export default createQpdf;
