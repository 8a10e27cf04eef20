import { loadMupdf } from "../../../src/engines/mupdf/loader";

// Independent readings of outputs for the PDF toolkit B tests: MuPDF renders
// pixels and re-extracts text the way a viewer would; ink is located in
// visual page coordinates (points, origin top-left, rotation and crop box
// applied), which is where a reader sees it.

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

/** Renders a page at `dpi` and finds the pixels `match` picks, in page points. */
export async function inkOn(bytes: Uint8Array, pageIndex: number, match: Rgb, dpi = 72): Promise<Ink> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(pageIndex);
  const k = dpi / 72;
  const pix = page.toPixmap([k, 0, 0, k, 0, 0], mupdf.ColorSpace.DeviceRGB, false, true);
  try {
    const w = pix.getWidth();
    const h = pix.getHeight();
    const stride = pix.getStride();
    const px = pix.getPixels();
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
  } finally {
    pix.destroy();
    page.destroy();
    doc.destroy();
  }
}

/** Text of each page as MuPDF extracts it (what copy and paste gives). */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
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
}

/** A solid-colour image; `hole` makes the central third fully transparent (PNG only). */

/** Pixel sizes of the images embedded in a PDF (every image XObject). */
export async function embeddedImageSizes(bytes: Uint8Array): Promise<[number, number][]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  try {
    const out: [number, number][] = [];
    for (let num = 1; num < doc.countObjects(); num++) {
      const obj = doc.newIndirect(num).resolve();
      if (obj.isDictionary() && obj.get("Subtype").isName() && obj.get("Subtype").asName() === "Image") {
        out.push([obj.get("Width").asNumber(), obj.get("Height").asNumber()]);
      }
    }
    return out;
  } finally {
    doc.destroy();
  }
}

/** Direction of every text line on a page, in visual space (y down), with its text. */
export async function lineDirections(bytes: Uint8Array, pageIndex: number): Promise<{ text: string; dir: [number, number] }[]> {
  const mupdf = await loadMupdf();
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
}

/** Font names embedded in a PDF (every /FontDescriptor's /FontName). */
export async function embeddedFonts(bytes: Uint8Array): Promise<string[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  try {
    const names: string[] = [];
    for (let num = 1; num < doc.countObjects(); num++) {
      const obj = doc.newIndirect(num).resolve();
      if (obj.isDictionary() && obj.get("Type").isName() && obj.get("Type").asName() === "FontDescriptor") {
        const embedded = ["FontFile", "FontFile2", "FontFile3"].some((k) => !obj.get(k).isNull());
        if (embedded) names.push(obj.get("FontName").asName());
      }
    }
    return names;
  } finally {
    doc.destroy();
  }
}

/** Whitespace-free text, so line breaks MuPDF inserts between runs do not matter. */
export const squash = (s: string): string => s.replace(/\s+/g, "");

/** Centres and sizes (points) of the separate patches `match` picks on a rendered page. */
export async function blobsOn(
  bytes: Uint8Array,
  pageIndex: number,
  match: Rgb,
  dpi = 36,
): Promise<{ cx: number; cy: number; w: number; h: number; edge: boolean }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(pageIndex);
  const k = dpi / 72;
  const pix = page.toPixmap([k, 0, 0, k, 0, 0], mupdf.ColorSpace.DeviceRGB, false, true);
  try {
    const w = pix.getWidth();
    const h = pix.getHeight();
    const stride = pix.getStride();
    const px = pix.getPixels();
    const label = new Int32Array(w * h).fill(-1);
    const out: { cx: number; cy: number; w: number; h: number; edge: boolean }[] = [];
    const on = (i: number) =>
      match(px[Math.floor(i / w) * stride + (i % w) * 3], px[Math.floor(i / w) * stride + (i % w) * 3 + 1], px[Math.floor(i / w) * stride + (i % w) * 3 + 2]);
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
  } finally {
    pix.destroy();
    page.destroy();
    doc.destroy();
  }
}

/**
 * Whether `value` is still written in any stream of the file (decoded), as
 * literal or hex string text: redaction must cut it out, not cover it.
 */
export async function streamsContain(bytes: Uint8Array, value: string): Promise<boolean> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  const hex = [...value].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  try {
    for (let num = 1; num < doc.countObjects(); num++) {
      const obj = doc.newIndirect(num);
      if (!obj.isStream()) continue;
      const buf = obj.readStream();
      const text = new TextDecoder("latin1").decode(buf.asUint8Array());
      buf.destroy();
      if (text.includes(value) || text.toLowerCase().replace(/\s/g, "").includes(hex)) return true;
    }
    return false;
  } finally {
    doc.destroy();
  }
}
