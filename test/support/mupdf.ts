import createMupdf from "../../wasm/mupdf-factory.js";
import mupdfWasm from "../../wasm/mupdf-wasm.wasm";
import { ssim } from "../../src/engines/quality/ssim";

// MuPDF for the readings no other reader here can make: pages rendered to
// pixels (where ink lands, what colour, how alike two renderings are), text
// with its direction, and text of encrypted or right-to-left documents. It is
// a test-only instance made from the factory, not the app's loader, so the
// instance under test, its recycling and its call bookkeeping play no part in
// a reading. Everything else is read with pdf-lib (pdf-read.ts, pdf-text.ts).
//
// MuPDF's C side calls back into JavaScript through `globalThis.$libmupdf_*`
// hooks (log, font loading, devices), owned by whichever instance was made
// last. The app installs a font hook on its own instance, so this one's hooks
// are in place only while it reads, synchronously, and the app's go back after.

export type Mupdf = typeof import("mupdf");
type Hooks = Record<string, unknown>;

const scope = globalThis as unknown as Hooks;
const hooks = (): Hooks => Object.fromEntries(Object.keys(scope).flatMap((k) => (k.startsWith("$libmupdf_") ? [[k, scope[k]]] : [])));
const install = (h: Hooks) => Object.assign(scope, h);

let reader: Promise<{ mupdf: Mupdf; own: Hooks }> | undefined;

async function start(): Promise<{ mupdf: Mupdf; own: Hooks }> {
  const app = hooks();
  const mupdf = await createMupdf({
    // Workers cannot compile WASM from bytes: the module is the one the bundler compiled.
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      void WebAssembly.instantiate(mupdfWasm, imports).then((instance) => done(instance, mupdfWasm));
      return {};
    },
  });
  const own = hooks();
  install(app);
  mupdf.setLog(() => undefined);
  return { mupdf, own };
}

/** Runs `read` on the test-only instance. `read` must be synchronous: the instance's hooks are installed only for its duration. */
export async function withMupdf<T>(read: (mupdf: Mupdf) => T): Promise<T> {
  reader ??= start().catch((err: unknown) => {
    reader = undefined;
    throw err;
  });
  const { mupdf, own } = await reader;
  const saved = hooks();
  install(own);
  try {
    const result = read(mupdf);
    if (result instanceof Promise) throw new Error("withMupdf: the reading must be synchronous");
    return result;
  } finally {
    install(saved);
  }
}

export interface Ink {
  count: number;
  /** Visual page coordinates (points, origin top-left), as a reader sees the page. */
  box: [number, number, number, number];
  centroid: [number, number];
  page: [number, number];
  /** The matched pixel whose red-minus-green or blue-minus-green is largest: the stamp's full colour. */
  strongest: [number, number, number];
}

type Rgb = (r: number, g: number, b: number) => boolean;

export const reddish: Rgb = (r, g, b) => r > 150 && r - g > 60 && r - b > 60;
export const bluish: Rgb = (r, g, b) => b > 150 && b - r > 60 && b - g > 60;
export const greenish: Rgb = (r, g, b) => g > 100 && g - r > 60 && g - b > 60;
export const dark: Rgb = (r, g, b) => r < 110 && g < 110 && b < 110;

interface Rendered {
  width: number;
  height: number;
  stride: number;
  /** RGB, or grey when rendered so. */
  px: Uint8ClampedArray;
}

/** Page `index` rendered at `dpi` over white, as a viewer shows it (rotation and crop box applied). */
function render(bytes: Uint8Array, index: number, dpi: number, grey = false): Promise<Rendered> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    const page = doc.loadPage(index);
    const k = dpi / 72;
    const pix = page.toPixmap([k, 0, 0, k, 0, 0], grey ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      return { width: pix.getWidth(), height: pix.getHeight(), stride: pix.getStride(), px: pix.getPixels().slice() };
    } finally {
      pix.destroy();
      page.destroy();
      doc.destroy();
    }
  });
}

/** Renders a page at `dpi` and finds the pixels `match` picks, in page points. */
export async function inkOn(bytes: Uint8Array, pageIndex: number, match: Rgb, dpi = 72): Promise<Ink> {
  const { width: w, height: h, stride, px } = await render(bytes, pageIndex, dpi);
  const k = dpi / 72;
  let count = 0;
  let sx = 0;
  let sy = 0;
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let strongest: [number, number, number] = [0, 0, 0];
  let best = -Infinity;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * stride + x * 3;
      if (!match(px[o], px[o + 1], px[o + 2])) continue;
      count++;
      const spread = Math.max(px[o], px[o + 2]) - px[o + 1];
      if (spread > best) {
        best = spread;
        strongest = [px[o], px[o + 1], px[o + 2]];
      }
      sx += x;
      sy += y;
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x + 1);
      box[3] = Math.max(box[3], y + 1);
    }
  }
  return { count, box: box.map((v) => v / k) as Ink["box"], centroid: [sx / count / k, sy / count / k], page: [w / k, h / k], strongest };
}

/** Centres and sizes (points) of the separate patches `match` picks on a rendered page. */
export async function blobsOn(
  bytes: Uint8Array,
  pageIndex: number,
  match: Rgb,
  dpi = 36,
): Promise<{ cx: number; cy: number; w: number; h: number; edge: boolean }[]> {
  const { width: w, height: h, stride, px } = await render(bytes, pageIndex, dpi);
  const k = dpi / 72;
  const label = new Int32Array(w * h).fill(-1);
  const out: { cx: number; cy: number; w: number; h: number; edge: boolean }[] = [];
  const on = (i: number) => {
    const o = Math.floor(i / w) * stride + (i % w) * 3;
    return match(px[o], px[o + 1], px[o + 2]);
  };
  for (let start = 0; start < w * h; start++) {
    if (label[start] >= 0 || !on(start)) continue;
    const stack = [start];
    label[start] = out.length;
    let [x0, y0, x1, y1] = [w, h, 0, 0];
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = Math.floor(i / w);
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      for (const n of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (n >= 0 && label[n] < 0 && on(n)) {
          label[n] = out.length;
          stack.push(n);
        }
      }
    }
    out.push({ cx: (x0 + x1) / 2 / k, cy: (y0 + y1) / 2 / k, w: (x1 - x0) / k, h: (y1 - y0) / k, edge: x0 === 0 || y0 === 0 || x1 === w || y1 === h });
  }
  return out;
}

/** A page rendered in grey at `dpi`, for comparing two renderings (SSIM). */
export async function greyPage(bytes: Uint8Array, index: number, dpi: number): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { width, height, stride, px } = await render(bytes, index, dpi, true);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) data.set(px.subarray(y * stride, y * stride + width), y * width);
  return { data, width, height };
}

/** Mean SSIM of two documents over every page, rendered in grey at `dpi` (150, as quality_score; the service samples pages, this does not). */
export async function fullSsim(before: Uint8Array, after: Uint8Array, pages: number, dpi = 150): Promise<number> {
  let sum = 0;
  for (let i = 0; i < pages; i++) sum += ssim(await greyPage(before, i, dpi), await greyPage(after, i, dpi));
  return sum / pages;
}

/** Direction of every text line on a page, in visual space (y down), with its text. */
export function lineDirections(bytes: Uint8Array, pageIndex: number): Promise<{ text: string; dir: [number, number] }[]> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    const page = doc.loadPage(pageIndex);
    const st = page.toStructuredText("");
    const out: { text: string; dir: [number, number] }[] = [];
    try {
      st.walk({
        beginLine(_bbox, _wmode, dir) {
          out.push({ text: "", dir: [dir[0], dir[1]] });
        },
        onChar(c) {
          out[out.length - 1].text += c;
        },
      });
      return out;
    } finally {
      st.destroy();
      page.destroy();
      doc.destroy();
    }
  });
}

/**
 * Text of each page as MuPDF extracts it (what copy and paste gives),
 * opening with `password` when the file needs one. For what pdf-text.ts
 * cannot read: encrypted files, right-to-left scripts in visual order.
 */
export function mupdfTexts(bytes: Uint8Array, password?: string): Promise<string[]> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    try {
      if (doc.needsPassword() && password !== undefined) doc.authenticatePassword(password);
      const out: string[] = [];
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        const st = page.toStructuredText("preserve-whitespace");
        out.push(st.asText());
        st.destroy();
        page.destroy();
      }
      return out;
    } finally {
      doc.destroy();
    }
  });
}

/** Page count as MuPDF reads the file, and whether it had to repair the file to read it. */
export function mupdfOpens(bytes: Uint8Array): Promise<{ pages: number; repaired: boolean }> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
    try {
      return { pages: doc.countPages(), repaired: doc.wasRepaired() };
    } finally {
      doc.destroy();
    }
  });
}
