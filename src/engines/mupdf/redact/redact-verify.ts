import { detectPii } from "../../pii/detect";
import type { EntityType } from "../../pii/entity-types";
import { withPdf } from "../core/document";
import { indexPageText, type Quad, type TextIndex } from "./text-index";

export interface PageRedaction {
  page: number;
  quads: Quad[];
}

/** Re-reads the saved output: nothing may remain under a box or be detected again. */
export async function verifyRemoval(data: Uint8Array, plan: readonly PageRedaction[], types: readonly EntityType[]): Promise<boolean> {
  return withPdf(data, (doc) =>
    plan.every(({ page: index, quads }) => {
      const page = doc.loadPage(index);
      try {
        const text = indexPageText(page);
        return !textUnder(text, quads) && detectPii(text.text, types).length === 0;
      } finally {
        page.destroy();
      }
    }),
  );
}

function textUnder(text: TextIndex, boxes: readonly Quad[]): boolean {
  return text.quads.some((q, i) => {
    if (!q || /\s/.test(text.text[i])) return false;
    const cx = (q[0] + q[2] + q[4] + q[6]) / 4;
    const cy = (q[1] + q[3] + q[5] + q[7]) / 4;
    return boxes.some((b) => insideQuad(b, cx, cy));
  });
}

/** Point in a convex quad given as MuPDF orders it: ul, ur, ll, lr. */
function insideQuad(q: Quad, x: number, y: number): boolean {
  const ring = [
    [q[0], q[1]],
    [q[2], q[3]],
    [q[6], q[7]],
    [q[4], q[5]],
  ];
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = ring[i];
    const [bx, by] = ring[(i + 1) % 4];
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (Math.abs(cross) < 1e-9) continue;
    const s = Math.sign(cross);
    if (sign && s !== sign) return false;
    sign = s;
  }
  return true;
}
