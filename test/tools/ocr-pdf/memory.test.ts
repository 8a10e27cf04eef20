import { describe, expect, it } from "vitest";
import { download, file, postForm } from "../../support/http";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";
import { runtimeReport } from "../../support/runtime";
import { pageWords } from "./words";

// Languages and the OCR Worker's memory (docs/reference/pdf-ocr.md, Memory):
// one Tesseract instance at a time whatever the language, so calls that
// switch languages replace it instead of piling up instances; the heap the
// OCR Worker reports stays where one instance keeps it.

interface OcrWorkerReport {
  wasm_heaps: Record<string, number>;
  ocr: { instances: number; language_switches: number; language: string | null; recycle_above_bytes: number };
}

const ocrWorker = async () => (await runtimeReport<{ workers: { ocr: OcrWorkerReport | null } }>()).workers.ocr;

describe("OCR to searchable PDF: languages and memory", () => {
  it("switching languages call after call replaces the one instance and the heap does not grow with it", async () => {
    const scan = await scanOf(await layoutPdf([[{ text: "Eine kurze Zeile für das Gedächtnis.", x: 72, y: 100, size: 12 }]]), { dpi: 300 });
    const heaps: number[] = [];
    const before = await ocrWorker();
    for (const languages of ["eng", "deu", "fra", "eng,deu", "ita", "por", "eng", "deu", "fra", "eng,fra"]) {
      const res = await postForm("/api/v1/pdf/ocr", { file: file(scan, "scan.pdf"), languages });
      expect(res.status, await res.clone().text()).toBe(200);
      const report = await ocrWorker();
      heaps.push(report?.wasm_heaps.ocr ?? 0);
    }
    const after = await ocrWorker();
    expect(after?.ocr.language_switches ?? 0).toBeGreaterThanOrEqual((before?.ocr.language_switches ?? 0) + 10);
    // One instance's heap, never the sum of several: it stays under the recycling threshold plus one band's growth.
    const limit = (after?.ocr.recycle_above_bytes ?? 0) + 16 * 1024 * 1024;
    expect(Math.max(...heaps)).toBeLessThan(limit);
    // A fresh instance per switch: the last heaps are no larger than the first ones.
    expect(Math.max(...heaps.slice(-4))).toBeLessThanOrEqual(Math.max(...heaps.slice(0, 6)) + 4 * 1024 * 1024);
  });

  it("two calls at once in different languages each get their own model's reading", async () => {
    const scanOfLine = async (text: string) => scanOf(await layoutPdf([[{ text, x: 72, y: 100, size: 12 }]]), { dpi: 300 });
    const [german, french] = await Promise.all([scanOfLine("Die Straße öffnet früh für Jürgen."), scanOfLine("Le garçon préfère le thé très chaud.")]);
    const ask = async (scan: Uint8Array, languages: string) => {
      const res = await postForm("/api/v1/pdf/ocr", { file: file(scan, "scan.pdf"), languages });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { word_count: number; languages: string[]; file_url: string };
      return { ...body, text: (await pageWords(await download(body.file_url))).map((w) => w.text).join(" ") };
    };
    const before = (await ocrWorker())?.ocr.language_switches ?? 0;
    const [de, fr] = await Promise.all([ask(german, "deu"), ask(french, "fra")]);
    expect(de).toMatchObject({ languages: ["deu"], word_count: 6 });
    expect(fr).toMatchObject({ languages: ["fra"], word_count: 7 });
    // Case aside: at one line of 12 pt the German model read "öffnet" as "Öffnet".
    expect(de.text.toLowerCase()).toContain("straße öffnet früh für jürgen");
    expect(fr.text.toLowerCase()).toContain("garçon préfère le thé très");
    expect((await ocrWorker())?.ocr.language_switches ?? 0).toBeGreaterThan(before);
  });
});
