// A FIFO of inflated pieces read a few bytes at a time (scanlines), shared by
// both inflaters. Pieces are dropped as soon as they are read.

export class PieceQueue {
  private readonly queue: Uint8Array[] = [];
  private head = 0;
  private piece: Uint8Array = new Uint8Array(0);
  private piecePos = 0;
  /** Bytes queued and not read yet. */
  available = 0;
  /** Bytes read so far. */
  consumed = 0;

  protected push(data: Uint8Array): void {
    if (!data.length) return;
    this.queue.push(data);
    this.available += data.length;
  }

  protected clear(): void {
    this.queue.length = 0;
    this.head = 0;
    this.piece = new Uint8Array(0);
    this.piecePos = 0;
    this.available = 0;
  }

  private nextPiece(): void {
    this.piece = this.queue[this.head];
    this.queue[this.head++] = undefined as unknown as Uint8Array;
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.piecePos = 0;
  }

  /** Copies the next n bytes to dst[off ..]; n must be <= available. */
  take(dst: Uint8Array, off: number, n: number): void {
    this.available -= n;
    this.consumed += n;
    while (n > 0) {
      if (this.piecePos >= this.piece.length) this.nextPiece();
      const k = Math.min(n, this.piece.length - this.piecePos);
      if (k === 1) dst[off] = this.piece[this.piecePos];
      else dst.set(this.piece.subarray(this.piecePos, this.piecePos + k), off);
      this.piecePos += k;
      off += k;
      n -= k;
    }
  }

  /** The next byte; available must be >= 1. */
  takeByte(): number {
    this.available--;
    this.consumed++;
    if (this.piecePos >= this.piece.length) this.nextPiece();
    return this.piece[this.piecePos++];
  }

  /** Drops n bytes (n <= available). */
  skip(n: number): void {
    this.available -= n;
    this.consumed += n;
    while (n > 0) {
      if (this.piecePos >= this.piece.length) this.nextPiece();
      const k = Math.min(n, this.piece.length - this.piecePos);
      this.piecePos += k;
      n -= k;
    }
  }
}
