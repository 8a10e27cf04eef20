import { describe, expect, it } from "vitest";
import { repairPdf } from "../../../src/tools/repair-pdf";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { download, pdfFile, postForm, problem } from "../../support/http";
import { bluish, inkOn, mupdfOpens, mupdfTexts } from "../../support/mupdf";
import { makePdf } from "../../support/pdf.mjs";
import { pageWithCorruptImages, xrefStreamWithoutSelfEntry } from "./hand-pdf";
import { qpdfCheck, qpdfCheckLinearization } from "./qpdf-oracle";
import { runtimeReport } from "../../support/runtime";
import type { Answer } from "../../support/answers";

// Repair PDF's second road (objects rewritten under an exact table when
// MuPDF's own reconstruction finds no page), corrupt image streams, the
// linearized output written by qpdf (WebAssembly), and the memory the call
// declares and uses.

const REPAIR = "/api/v1/pdf/repair";
const MiB = 1024 * 1024;

type RepairBody = Answer<"repair-pdf">;

async function repair(bytes: Uint8Array, name = "damaged.pdf") {
  const res = await postForm(REPAIR, { file: pdfFile(bytes, name) });
  const body = (await res.clone().json()) as RepairBody;
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(repairPdf.response.safeParse(body).error).toBeUndefined(); // the answer is what OpenAPI documents
  const out = await download(body.url);
  expect(out.byteLength).toBe(body.repaired_size);
  return { body, out };
}

interface Runtime {
  wasm_heaps: Record<string, number>;
  wasm_peak_heaps: Record<string, number>;
  largest_reservation: number;
}

async function runtime(): Promise<Runtime> {
  return runtimeReport<Runtime>();
}

const latin1 = (bytes: Uint8Array) => Array.from(bytes.subarray(0, 1024), (b) => String.fromCharCode(b)).join("");

/** The file's first object, read from the bytes: "<< /Linearized 1 /L <length> ... >>". */
function linearizationDictionary(bytes: Uint8Array): string {
  const m = /^%PDF-\d\.\d[^\n]*\n(?:%[^\n]*\n)*\s*\d+ 0 obj\s*(<<[\s\S]*?>>)/.exec(latin1(bytes));
  return m ? m[1] : "";
}

describe("Repair PDF: linearized output and memory", () => {
  // First in the file: the qpdf heap is the isolate's peak only until other calls grow MuPDF.
  it("registers qpdf's heap while it runs and gives it back after; reserves the declared memory", async () => {
    const sound = await makePdf({ pages: 40, label: "Memory" });
    const { body } = await repair(sound, "sound.pdf");
    expect(body.linearized).toBe(true);
    const r = await runtime();
    expect(r.wasm_heaps).toHaveProperty("qpdf", 0);
    expect(r.wasm_peak_heaps.qpdf).toBeGreaterThanOrEqual(16 * MiB);
    // 24 MiB + 7x the upload (the default estimate would be 8 MiB + 4x).
    expect(r.largest_reservation).toBeGreaterThanOrEqual(24 * MiB + 7 * sound.byteLength);
  });

  it("writes a linearized file: the first object is the linearization dictionary with the file's length, and qpdf agrees", async () => {
    const { body, out } = await repair(await makePdf({ pages: 5, label: "Fast" }), "fast.pdf");
    expect(body).toMatchObject({ linearized: true, damage_found: false, recovered_by: "mupdf", pages: 5 });
    const dict = linearizationDictionary(out);
    expect(dict).toMatch(/\/Linearized 1\b/);
    expect(Number(/\/L (\d+)/.exec(dict)?.[1])).toBe(out.byteLength);
    expect(Number(/\/N (\d+)/.exec(dict)?.[1])).toBe(5);
    expect(await qpdfCheckLinearization(out)).toMatchObject({ code: 0 });
    expect((await mupdfTexts(out)).map((t) => t.trim())).toEqual(["Fast page 1", "Fast page 2", "Fast page 3", "Fast page 4", "Fast page 5"]);
  });
});

describe("Repair PDF: damage MuPDF alone does not mend", () => {
  it("a cross-reference stream without an entry for itself: recovered with its text, linearized", async () => {
    const input = xrefStreamWithoutSelfEntry("Xref self");
    expect(new TextDecoder("latin1").decode(input)).toContain("/Type/XRef/Size 5/W[1 4 2]/Index[0 5]"); // object 5 is the stream
    const { body, out } = await repair(input);
    expect(body).toMatchObject({ pages: 1, linearized: true });
    expect(await mupdfOpens(out)).toEqual({ pages: 1, repaired: false });
    expect((await mupdfTexts(out))[0].trim()).toBe("Xref self");
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  });

  it("undecodable image streams are replaced by a grey placeholder: the page and its text stay, qpdf --check passes", async () => {
    const input = pageWithCorruptImages("Image page");
    expect((await qpdfCheck(input)).code).not.toBe(0); // the fixture is damaged as qpdf sees it
    const { body, out } = await repair(input);
    expect(body).toMatchObject({ pages: 1, damage_found: true, images_replaced: 2, linearized: true });
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
    expect((await mupdfTexts(out))[0].trim()).toBe("Image page");
    // The first image's box (20..120 x 40..120 from the top) is painted mid-grey.
    const grey = await inkOn(out, 0, (r, g, b) => Math.abs(r - 128) < 8 && Math.abs(g - 128) < 8 && Math.abs(b - 128) < 8);
    expect(grey.count).toBeGreaterThan(2 * 100 * 80 * 0.9);
    expect(grey.box[0]).toBeCloseTo(20, 0);
    expect(grey.box[2]).toBeCloseTo(260, 0);
  });

  it("a sound file has nothing replaced", async () => {
    const { body } = await repair(await makePdf({ pages: 1, label: "Plain" }));
    expect(body).toMatchObject({ images_replaced: 0, damage_found: false });
  });

  itWithCorpus("poppler-937 (garbled page dictionary and /Kids): the page comes back with its drawing", async () => {
    const { body, out } = await repair(await corpusFile("pdfjs/broken/poppler-937-0-fuzzed.pdf"));
    expect(body).toMatchObject({ pages: 1, damage_found: true, recovered_by: "rebuilt_pages", linearized: true });
    const ink = await inkOn(out, 0, bluish, 144);
    expect(Math.abs(ink.page[0] - 209.76)).toBeLessThan(1.5); // the MediaBox read out of "[0 0L209.7638 297.6378;" (whole pixels)
    expect(ink.count).toBeGreaterThan(100); // the blue frame its content stream draws
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  });

  itWithCorpus("poppler-742 (MuPDF's object scan gives up on it): the A4 page comes back", async () => {
    const { body, out } = await repair(await corpusFile("pdfjs/broken/poppler-742-0-fuzzed.pdf"));
    expect(body).toMatchObject({ pages: 1, damage_found: true, linearized: true });
    expect(["rebuilt_objects", "rebuilt_pages"]).toContain(body.recovered_by);
    const page = (await inkOn(out, 0, bluish)).page;
    expect(Math.abs(page[0] - 595.28)).toBeLessThan(1.5); // whole pixels at 72 dpi
    expect(Math.abs(page[1] - 841.89)).toBeLessThan(1.5);
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  });

  itWithCorpus("REDHAT-1531897 and issue15590 hold no page object at all: 422, as qpdf and mutool find none", async () => {
    for (const file of ["pdfjs/broken/REDHAT-1531897-0.pdf", "pdfjs/broken/issue15590.pdf"]) {
      const res = await postForm(REPAIR, { file: pdfFile(await corpusFile(file), "x.pdf") });
      expect(res.status, file).toBe(422);
      expect((await problem(res)).code).toBe("unreadable_document");
    }
  });
});
