import { ByteWriter } from "../util/bytes";
import type { CoefBand } from "./band";
import { forEachBlockInMcuOrder } from "./band";
import { BitWriter } from "./bit-io";
import { encodeBlock } from "./blocks";
import type { FrameGeometry } from "./frame";
import { encodeTable, type EncodeTable, type HuffmanSpec } from "./huffman";
import type { LoggedTables, SymbolLog } from "./symbol-log";

// Writes a baseline (or extended, for 16-bit quantisers) sequential JPEG from
// coefficients: one interleaved scan, tables 0 for the first component and 1
// for the others.

export interface HuffmanSet {
  dc: [HuffmanSpec, HuffmanSpec];
  ac: [HuffmanSpec, HuffmanSpec];
}

function segment(w: ByteWriter, marker: number, payload: Uint8Array | number[]): void {
  w.u8(0xff);
  w.u8(marker);
  w.u16be(payload.length + 2);
  for (const v of payload) w.u8(v);
}

function dhtPayload(cls: number, id: number, spec: HuffmanSpec): number[] {
  return [(cls << 4) | id, ...spec.counts, ...spec.symbols];
}

/**
 * Huffman tables as a scan refers to them: the tables by slot (DHT id), and
 * each component's DC and AC slot, in frame order.
 */
export interface ScanTables {
  dc: (HuffmanSpec | undefined)[];
  ac: (HuffmanSpec | undefined)[];
  td: number[];
  ta: number[];
}

/** Our own layout: slot 0 for the first component, slot 1 for the others. */
function ownTables(g: FrameGeometry, huff: HuffmanSet): ScanTables {
  const slots = g.components.map((_, i) => (i === 0 ? 0 : 1));
  const used = g.components.length > 1 ? 2 : 1;
  return { dc: huff.dc.slice(0, used), ac: huff.ac.slice(0, used), td: slots, ta: slots };
}

/** SOI .. SOS for an image of `height` rows (the width and sampling come from `g`). */
export function jpegHeader(g: FrameGeometry, dqt: Uint8Array[], height: number, huff: HuffmanSet | ScanTables, extra: Uint8Array[] = []): Uint8Array {
  const tables = "td" in huff ? huff : ownTables(g, huff);
  const w = new ByteWriter(2048);
  w.u8(0xff);
  w.u8(0xd8);
  for (const e of extra) w.bytes(e);
  for (const q of dqt) segment(w, 0xdb, q);
  const extended = dqt.some((q) => q[0] >> 4 !== 0);
  const sof = [8, height >> 8, height & 0xff, g.width >> 8, g.width & 0xff, g.components.length];
  for (const c of g.components) sof.push(c.id, (c.h << 4) | c.v, c.tq);
  segment(w, extended ? 0xc1 : 0xc0, sof);
  const dht: number[] = [];
  for (let id = 0; id < Math.max(tables.dc.length, tables.ac.length); id++) {
    const dc = tables.dc[id];
    const ac = tables.ac[id];
    if (dc && tables.td.includes(id)) dht.push(...dhtPayload(0, id, dc));
    if (ac && tables.ta.includes(id)) dht.push(...dhtPayload(1, id, ac));
  }
  segment(w, 0xc4, dht);
  const sos = [g.components.length];
  g.components.forEach((c, i) => sos.push(c.id, (tables.td[i] << 4) | tables.ta[i]));
  sos.push(0, 63, 0);
  segment(w, 0xda, sos);
  return w.result();
}

/** Entropy-codes bands in order, carrying DC predictions across them. */
export class ScanEncoder {
  private readonly dc: EncodeTable[];
  private readonly ac: EncodeTable[];
  private readonly preds: number[];
  private readonly logged: LoggedTables;
  readonly out = new BitWriter();

  constructor(
    private readonly g: FrameGeometry,
    huff: HuffmanSet,
  ) {
    const dc = [encodeTable(huff.dc[0]), encodeTable(huff.dc[1])];
    const ac = [encodeTable(huff.ac[0]), encodeTable(huff.ac[1])];
    this.dc = g.components.map((_, i) => dc[i === 0 ? 0 : 1]);
    this.ac = g.components.map((_, i) => ac[i === 0 ? 0 : 1]);
    this.logged = [dc[0], ac[0], dc[1], ac[1]];
    this.preds = g.components.map(() => 0);
  }

  /** Writes a symbol log made with this encoder's tables' frequencies. */
  encodeLogged(log: SymbolLog): void {
    log.writeTo(this.out, this.logged);
  }

  encode(band: CoefBand): void {
    forEachBlockInMcuOrder(this.g, band, (ci, at) => {
      const plane = band.planes[ci];
      encodeBlock(this.out, this.dc[ci], this.ac[ci], plane, at, this.preds[ci]);
      this.preds[ci] = plane[at];
    });
  }

  /** Pads the last byte; the caller appends EOI. */
  finish(): Uint8Array {
    this.out.flush();
    return this.out.take();
  }
}

export const EOI_BYTES = new Uint8Array([0xff, 0xd9]);
