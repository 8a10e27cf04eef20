// Types of the Emscripten glue build.sh writes for av1-still.c.
export interface Av1StillModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _still_encode(rgba: number, width: number, height: number, kind: number, quantizer: number, speed: number, screen: number, side: number): number;
  _still_output(): number;
  _still_message(): number;
  _still_release(): void;
}

declare const createAv1StillEncoder: (options?: object) => Promise<Av1StillModule>;
export default createAv1StillEncoder;
