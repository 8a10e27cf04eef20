import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, withKey } from "../../support/http";
import { concatPdfs, layoutPdf, scanOf } from "../../support/pdf.mjs";
import { PATH, toMarkdown } from "./client";
import { runtimeReport } from "../../support/runtime";

// Scanned pages through OCR inside the Worker (docs/tools/ocr.md): scans are
// made in code (a text PDF rendered to pixels, test/support/pdf.mjs scanOf)
// and the Markdown is checked as a reader would.

const REPORT = () =>
  layoutPdf([
    [
      { text: "Quarterly Report", x: 72, y: 90, size: 26, font: "bold" },
      { text: "Sales grew in every region this quarter, led by the north.", x: 72, y: 140, size: 11 },
      { text: "The table below lists the figures for each region.", x: 72, y: 156, size: 11 },
      ...[
        ["Region", "Units", "Revenue"],
        ["North", "1200", "5600"],
        ["South", "980", "4100"],
        ["West", "450", "2300"],
      ].flatMap((row, r) => row.map((text, c) => ({ text, x: 72 + c * 150, y: 210 + r * 22, size: 11 }))),
    ],
  ]);

interface WorkerHeaps {
  wasm_heaps: Record<string, number>;
  wasm_peak_heaps: Record<string, number>;
}

async function runtime(): Promise<WorkerHeaps & { workers: { ocr: WorkerHeaps | null } }> {
  return runtimeReport();
}

describe("PDF to Markdown: scanned pages through OCR", () => {
  it("reads a scan into headings, paragraphs and a table, and reports engine ocr (the OCR heap really ran)", async () => {
    const body = await toMarkdown(await scanOf(await REPORT(), { dpi: 200 }));
    expect(body).toMatchObject({ engine: "ocr", pages: 1, pages_without_text: [1], credits_charged: 40 });
    expect(body.markdown).toMatch(/^# Quarterly Report$/m);
    expect(body.markdown).toContain("Sales grew in every region this quarter, led by the north. The table below lists the figures for each region.");
    expect(body.markdown).toMatch(/^\| *Region *\| *Units *\| *Revenue *\|$/m);
    expect(body.markdown).toMatch(/^\| *North *\| *1200 *\| *5600 *\|$/m);
    expect(body.markdown).toMatch(/^\| *West *\| *450 *\| *2300 *\|$/m);
    expect(body.headings).toBe(1);
    // The probe: Tesseract ran in the OCR Worker's isolate (its heap was live there), never in this one.
    const report = await runtime();
    expect(report.workers.ocr?.wasm_heaps).toHaveProperty("ocr");
    expect(report.workers.ocr?.wasm_peak_heaps.ocr ?? 0).toBeGreaterThan(0);
    expect(report.wasm_heaps).not.toHaveProperty("ocr");
  });

  it("keeps the text pages of a mixed document and puts the scan's text in page order", async () => {
    const text = (n: number) => layoutPdf([[{ text: `The typed page number ${n} of the file.`, x: 72, y: 100 }]]);
    const scan = await scanOf(await layoutPdf([[{ text: "A scanned letter sits between them.", x: 72, y: 100 }]]), { dpi: 200 });
    const body = await toMarkdown(await concatPdfs(await text(1), scan, await text(3)));
    expect(body).toMatchObject({ engine: "ocr", pages: 3, pages_without_text: [2] });
    expect(body.markdown).toBe("The typed page number 1 of the file.\n\nA scanned letter sits between them.\n\nThe typed page number 3 of the file.\n");
  });

  it.each([90, 180, 270])("reads a scan turned %i°", async (turn) => {
    const body = await toMarkdown(await scanOf(await REPORT(), { dpi: 150, turn }));
    expect(body.markdown).toMatch(/^# Quarterly Report$/m);
    expect(body.markdown).toMatch(/^\| *South *\| *980 *\| *4100 *\|$/m);
  });

  it("reads a slightly skewed scan with its table intact", async () => {
    const body = await toMarkdown(await scanOf(await REPORT(), { dpi: 200, skew: 1.5 }));
    expect(body.markdown).toMatch(/^# Quarterly Report$/m);
    expect(body.markdown).toMatch(/^\| *North *\| *1200 *\| *5600 *\|$/m);
  });

  it("reads a scan again when its invisible text layer is junk, and keeps a real one", async () => {
    const junk = ["xq7#kz vvb@@9 qrtzp ~~fj", "zzkq 3#@ pqxv brrtt lkjh", "##$% qxz wvbn 7z7z kkq"];
    const body = await toMarkdown(await scanOf(await REPORT(), { dpi: 200, junk }));
    expect(body).toMatchObject({ engine: "ocr", pages_without_text: [1] });
    expect(body.markdown).toMatch(/^# Quarterly Report$/m);
    expect(body.markdown).not.toContain("qrtzp");
    // A searchable scan whose hidden layer reads well is taken at its word: no OCR.
    const good = await toMarkdown(await scanOf(await REPORT(), { dpi: 100, junk: ["The hidden layer of a searchable scan reads well enough."] }));
    expect(good).toMatchObject({ engine: "layout", pages_without_text: [] });
    expect(good.markdown).toContain("\n\nThe hidden layer of a searchable scan reads well enough.\n");
  });

  it("a scan with no readable text is a 200 with empty Markdown, billed (issue #32; this tool has no such error)", async () => {
    const acct = await accountWithKey({ credits: 500 });
    const blank = await scanOf(await layoutPdf([[{ image: [100, 100, 300, 200] }]]), { dpi: 100 });
    const res = await postForm(PATH, { file: file(blank, "scan.pdf") }, withKey(acct.key));
    const body = (await res.json()) as { markdown: string; engine: string; word_count: number; pages_without_text: number[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ markdown: "", engine: "ocr", word_count: 0, pages_without_text: [1] });
    expect(res.headers.get("X-Credits-Charged")).toBe("40");
    expect(await balanceOf(acct.token)).toBe(460);
  });
});
