// gifenc ships no type declarations; these cover the calls we make.
declare module "gifenc" {
  export interface FrameOptions {
    palette?: number[][];
    transparent?: boolean;
    transparentIndex?: number;
    delay?: number;
    /** -1 writes no NETSCAPE loop block (a still image). */
    repeat?: number;
    colorDepth?: number;
    dispose?: number;
  }
  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, opts?: FrameOptions): void;
    finish(): void;
    bytes(): Uint8Array;
    /** The written bytes as a view of the encoder's buffer (no copy). */
    bytesView(): Uint8Array;
  }
  export function GIFEncoder(opts?: { initialCapacity?: number; auto?: boolean }): Encoder;
}
