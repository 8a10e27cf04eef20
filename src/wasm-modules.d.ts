// WASM binaries are imported as precompiled modules (wrangler CompiledWasm rule).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

// Fonts (and other binary assets) are imported as ArrayBuffer (wrangler Data rule).
declare module "*.ttf" {
  const data: ArrayBuffer;
  export default data;
}

// workerd provides AsyncLocalStorage under nodejs_compat; the project does
// not load Node's whole type set, so the part we use is declared here.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, fn: () => R): R;
    getStore(): T | undefined;
    exit<R>(fn: () => R): R;
  }
}
