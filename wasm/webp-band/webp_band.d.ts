// Types of the Emscripten glue build.sh writes for webp-band.c.
export interface WebpBandModule {
  HEAPU8: Uint8Array;
  _band_message(): number;
  _enc_begin(width: number, height: number, orientation: number, alpha: number): number;
  _enc_buffer(rows: number): number;
  _enc_rows(rows: number): number;
  _enc_coef_buffer(blocks: number): number;
  _enc_coef_blocks(plane: number, blockRow: number, blockRows: number, blocksWide: number, fullHeight: number): number;
  _enc_coef_done(acrossOnly: number): void;
  _enc_finish(quality: number, method: number, lowMemory: number, alphaFilter: number): number;
  _enc_output(): number;
  _enc_release(): void;
  _enc_translucent(): number;
  _enc_used_low_memory(): number;
  _enc_token_road(): number;
  _enc_token_heap_limit(bytes: number): void;
  _dec_input(size: number): number;
  _dec_open(size: number): number;
  _dec_open_lossless(have: number, total: number): number;
  _dec_wants(): number;
  _dec_feed(): number;
  _dec_feed_room(): number;
  _dec_fed(n: number): void;
  _dec_width(): number;
  _dec_height(): number;
  _dec_window(): number;
  _dec_rows(rows: number): number;
  _dec_close(): void;
}

declare const createWebpBand: (options?: object) => Promise<WebpBandModule>;
export default createWebpBand;
