// Types of the Emscripten glue build.sh writes for inflate-band.c.
export interface InflateBandModule {
  HEAPU8: Uint8Array;
  _inf_open(inCap: number, outCap: number): number;
  _inf_close(): void;
  _inf_input(): number;
  _inf_output(): number;
  _inf_feed(n: number): void;
  _inf_step(): number;
  _inf_ended(): number;
  _inf_left(): number;
  _inf_message(): number;
}

declare const createInflateBand: (options?: object) => Promise<InflateBandModule>;
export default createInflateBand;
