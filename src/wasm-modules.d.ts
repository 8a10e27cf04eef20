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
