import { unzipSync } from "fflate";
import { expect } from "vitest";
import { download, file, postForm } from "../../support/http";
import { withMupdf } from "../../support/mupdf";
import type { Answer } from "../../support/answers";

// Calls and independent readers shared by the Convert document tests.

export const CONVERT = "/api/v1/conversion/single";

export type ConvertBody = Answer<"convert-document">;

export async function convert(bytes: Uint8Array, name: string, target: string, extra: Record<string, string> = {}, auth: Record<string, string> = {}) {
  const res = await postForm(CONVERT, { file: file(bytes, name, "application/octet-stream"), target_format: target, ...extra }, auth);
  return { res, body: (await res.clone().json()) as ConvertBody };
}

const CANONICAL: Record<string, string> = { jpeg: "jpg", markdown: "md" };

/** Converts, checks the answer's body (docs/tools/convert-document.md) and answers the downloaded output. */
export async function converted(bytes: Uint8Array, name: string, target: string, engine: string, extra: Record<string, string> = {}) {
  const { res, body } = await convert(bytes, name, target, extra);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ status: "completed", engine_used: engine, metadata: { target_format: CANONICAL[target] ?? target, engine_used: engine } });
  expect(body.conversion_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(body.quality_score).toBeGreaterThanOrEqual(0);
  expect(body.quality_score).toBeLessThanOrEqual(1);
  expect(body.metadata.quality_score).toBe(body.quality_score);
  expect(body.metadata.processing_time).toBe(body.processing_time);
  expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 300_000);
  const out = await download(body.output_file_url);
  expect(body.metadata.file_size).toBe(out.byteLength);
  return { body, out };
}

/** word/document.xml of a DOCX, read with fflate. */
export function documentXml(docx: Uint8Array): string {
  const parts = unzipSync(docx, { filter: (f) => f.name === "word/document.xml" });
  return new TextDecoder().decode(parts["word/document.xml"]);
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** The text of a DOCX body: w:t contents, a line per paragraph. */
export function docxText(xml: string): string {
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<\/w:p>/g)].map((m) => (m[1] === undefined ? "\n" : decode(m[1]))).join("");
}

/** Each run of a DOCX: its text and properties XML. */
export function docxRuns(xml: string): { text: string; props: string }[] {
  return [...xml.matchAll(/<w:r>(?:<w:rPr>([\s\S]*?)<\/w:rPr>)?([\s\S]*?)<\/w:r>/g)].map((m) => ({
    props: m[1] ?? "",
    text: [...(m[2] ?? "").matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => decode(t[1])).join(""),
  }));
}

/** Word multiset Dice similarity (NFKC, lower case, letters and digits): the measure, written apart from the engine's. */
export function similarity(a: string, b: string): number {
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const w of s
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [])
      m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const [x, y] = [count(a), count(b)];
  let shared = 0;
  let total = 0;
  for (const [w, n] of x) {
    shared += Math.min(n, y.get(w) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total ? (2 * shared) / total : 1;
}

export const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
export const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
export const isPdf = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 5)) === "%PDF-";

/** Width and height from a PNG's IHDR. */
export const pngSize = (b: Uint8Array): [number, number] => {
  const v = new DataView(b.buffer, b.byteOffset);
  return [v.getUint32(16), v.getUint32(20)];
};

/** Width and height from a JPEG's first SOF marker. */
export function jpegSize(b: Uint8Array): [number, number] {
  for (let i = 2; i + 9 < b.length; ) {
    const marker = b[i + 1];
    const len = (b[i + 2] << 8) | b[i + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return [(b[i + 7] << 8) | b[i + 8], (b[i + 5] << 8) | b[i + 6]];
    i += 2 + len;
  }
  throw new Error("no SOF marker");
}

/** Words set in bold and in italic faces, as the test-only MuPDF reads the source (font flags and names). */
export function styledWords(pdf: Uint8Array): Promise<{ bold: string[]; italic: string[] }> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(pdf, "application/pdf");
    const bold: string[] = [];
    const italic: string[] = [];
    try {
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        const st = page.toStructuredText("preserve-whitespace");
        let word = "";
        let style = { b: true, i: true };
        const flush = () => {
          if (word.length > 2 && /[\p{L}]/u.test(word)) {
            if (style.b) bold.push(word);
            if (style.i) italic.push(word);
          }
          word = "";
          style = { b: true, i: true };
        };
        st.walk({
          onChar(c, _o, font) {
            if (!/[\p{L}\p{N}]/u.test(c)) return flush();
            const name = font.getName();
            word += c;
            style.b &&= font.isBold() || /bold|black|heavy|semibold|demi/i.test(name);
            style.i &&= font.isItalic() || /italic|oblique/i.test(name);
          },
          endLine: flush,
        });
        st.destroy();
        page.destroy();
      }
    } finally {
      doc.destroy();
    }
    return { bold, italic };
  });
}

/** Share of `words` found inside runs of the DOCX whose properties match `prop`. */
export function keptIn(words: string[], runs: { text: string; props: string }[], prop: RegExp): number {
  if (!words.length) return 1;
  const styled = runs
    .filter((r) => prop.test(r.props))
    .map((r) => r.text)
    .join("");
  return words.filter((w) => styled.includes(w)).length / words.length;
}

/** Texts of every Word table cell in the document, whitespace squeezed. */
export function tableCells(xml: string): string[] {
  return (xml.match(/<w:tc>[\s\S]*?<\/w:tc>/g) ?? []).map((c) => docxText(c).replace(/\s+/g, " ").trim());
}
