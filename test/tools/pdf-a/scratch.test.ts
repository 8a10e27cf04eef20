import { it } from "vitest";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { heapReport } from "../../../src/engines/heap";
it("x", async () => {
  for (const [w, h, prog] of [[1000, 1000, true], [1654, 2339, false], [1654, 2339, true], [2048, 2048, true], [2480, 3508, false]] as const) {
    const data = new Uint8ClampedArray(w * h * 4).map((_, i) => (i * 7919) % 251);
    const t = performance.now();
    const out = await encodeJpeg({ data, width: w, height: h }, 75, { progressive: prog });
    console.log("ENC", w, h, prog, out.length, Math.round(performance.now() - t), "ms heap", (heapReport().mozjpeg_enc / 1048576).toFixed(1));
  }
});
