// WASM binaries are imported as precompiled modules (wrangler CompiledWasm rule).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
