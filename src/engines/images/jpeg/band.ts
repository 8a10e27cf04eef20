import type { FrameGeometry } from "./frame";

/**
 * Quantised coefficients of a run of MCU rows. Plane i holds component i's
 * blocks, (mcuRows * v) rows of bw blocks, 64 zig-zag coefficients each.
 */
export interface CoefBand {
  firstMcuRow: number;
  mcuRows: number;
  planes: Int16Array[];
}

export function emptyBand(g: FrameGeometry, firstMcuRow: number, mcuRows: number): CoefBand {
  return { firstMcuRow, mcuRows, planes: g.components.map((c) => new Int16Array(mcuRows * c.v * c.bw * 64)) };
}

/** Calls `fn(component, offset)` for every block in MCU (interleaved) order. */
export function forEachBlockInMcuOrder(g: FrameGeometry, band: CoefBand, fn: (ci: number, offset: number) => void): void {
  for (let my = 0; my < band.mcuRows; my++) {
    for (let mx = 0; mx < g.mcusX; mx++) {
      for (let ci = 0; ci < g.components.length; ci++) {
        const c = g.components[ci];
        for (let v = 0; v < c.v; v++) {
          const row = my * c.v + v;
          for (let h = 0; h < c.h; h++) fn(ci, (row * c.bw + mx * c.h + h) * 64);
        }
      }
    }
  }
}
