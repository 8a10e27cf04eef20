// Types of the Emscripten glue build.sh writes for av1-dec.c.
export interface Av1DecModule {
  HEAPU8: Uint8Array;
  _dec_message(): number;
  _dec_input(size: number): number;
  _dec_decode(slot: number, limit: number): number;
  _dec_info(slot: number, what: number): number;
  _dec_plane(slot: number, plane: number): number;
  _dec_free(slot: number): void;
  _dec_release(): void;
}

declare const createAv1Dec: (options?: object) => Promise<Av1DecModule>;
export default createAv1Dec;
