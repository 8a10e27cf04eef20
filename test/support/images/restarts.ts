import type { CoefBand } from "../../../src/engines/images/jpeg/band";
import { STANDARD_TABLES } from "../../../src/engines/images/jpeg/band-pixels";
import { parseJpeg } from "../../../src/engines/images/jpeg/markers";
import { SequentialReader } from "../../../src/engines/images/jpeg/sequential";
import { concat } from "../../../src/engines/images/util/bytes";
import { EOI_BYTES, jpegHeader, ScanEncoder } from "../../../src/engines/images/jpeg/write";

/**
 * A baseline JPEG written again with the standard tables and a restart
 * marker every `rows` MCU rows (DRI), the same coefficients: what many camera
 * and phone encoders write. Our writers never emit restarts.
 */
export function withRestarts(jpeg: Uint8Array, rows: number): Uint8Array {
  const reader = new SequentialReader(jpeg, parseJpeg(jpeg));
  const { g } = reader;
  const all = reader.next(g.mcusY);
  const interval = rows * g.mcusX;
  const parts: Uint8Array[] = [jpegHeader(g, reader.dqt, g.height, STANDARD_TABLES, [Uint8Array.of(0xff, 0xdd, 0, 4, interval >> 8, interval & 0xff)])];
  for (let first = 0, n = 0; first < g.mcusY; first += rows, n++) {
    if (n > 0) parts.push(Uint8Array.of(0xff, 0xd0 + ((n - 1) % 8)));
    const count = Math.min(rows, g.mcusY - first);
    const band: CoefBand = {
      firstMcuRow: first,
      mcuRows: count,
      planes: g.components.map((c, i) => all.planes[i].subarray(first * c.v * c.bw * 64, (first + count) * c.v * c.bw * 64)),
    };
    // A fresh encoder per interval: DC predictions start again from 0 after each marker.
    const enc = new ScanEncoder(g, STANDARD_TABLES);
    enc.encode(band);
    parts.push(enc.finish());
  }
  parts.push(EOI_BYTES);
  return concat(parts);
}
