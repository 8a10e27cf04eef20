import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, corpusList, describeWithCorpus, itWithCorpus } from "../../support/corpus";
import { download, pdfFile, postForm, problem, withKey } from "../../support/http";
import { makePdf, bytesToLatin1, classicPdf, latin1ToBytes } from "../../support/pdf.mjs";
import { mupdfOpens, mupdfTexts } from "../../support/mupdf";
import { qpdfCheck, qpdfCheckLinearization } from "./qpdf-oracle";
import type { Answer } from "../../support/answers";

const REPAIR = "/api/v1/pdf/repair";

// Files nothing usable can be rebuilt from: not a PDF (bad1), no page object
// left (REDHAT's only page was in an object stream whose Flate data is
// corrupt; issue15590's /Pages is a JavaScript action), or the one page
// object is numbered "3 18446744073709551616 obj" over an empty content
// stream (poppler-85140). qpdf and mutool recover no page from these either
// (MANIFEST.tsv); Ghostscript writes a blank page for the first two.
// poppler-742 and -937 recover through the rebuilt-objects road (recovery.test.ts).
const REFUSED = new Set(["qpdf/damaged/bad1.pdf", "pdfjs/broken/REDHAT-1531897-0.pdf", "pdfjs/broken/issue15590.pdf", "pdfjs/broken/poppler-85140-0.pdf"]);
// Recovered page counts that differ from 1 (the MANIFEST's peers agree on these).
const PAGES: Record<string, number> = { "qpdf/damaged/append-xref-loop.pdf": 30, "qpdf/damaged/outlines-with-loop.pdf": 30 };
// Per-file wall-clock bound, asked by the issue: a hang must become a 422, never a timeout.
const BOUND_MS = 10_000;

type RepairBody = Answer<"repair-pdf">;

async function repair(bytes: Uint8Array, name = "damaged.pdf", headers: Record<string, string> = {}) {
  const res = await postForm(REPAIR, { file: pdfFile(bytes, name) }, headers);
  return { res, body: (await res.clone().json()) as RepairBody };
}

/**
 * The output must read cleanly: MuPDF without repairing, pdf-lib (an
 * independent parser) with the same page count, and qpdf finds neither
 * damage nor a linearization error.
 */
async function assertClean(out: Uint8Array, pages: number) {
  expect(await mupdfOpens(out)).toEqual({ pages, repaired: false });
  expect((await PDFDocument.load(out, { throwOnInvalidObject: true })).getPageCount()).toBe(pages);
  expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  expect(await qpdfCheckLinearization(out)).toMatchObject({ code: 0 });
}

describeWithCorpus("repair over every damaged corpus file", async () => {
  const files = [...(await corpusList("qpdf/damaged")).map((f) => `qpdf/damaged/${f}`), ...(await corpusList("pdfjs/broken")).map((f) => `pdfjs/broken/${f}`)];

  it("covers the whole corpus", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  it.each(files)("%s: recovered cleanly or refused with 422, within 10 s", async (file) => {
    const input = await corpusFile(file);
    const started = Date.now();
    const { res, body } = await repair(input);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    if (REFUSED.has(file)) {
      expect(res.status).toBe(422);
      expect((await problem(res)).code).toBe("unreadable_document");
      return;
    }
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, pages: PAGES[file] ?? 1, original_size: input.byteLength, linearized: true });
    const out = await download(body.url);
    expect(out.byteLength).toBe(body.repaired_size);
    await assertClean(out, body.pages);
  });
});

describe("POST /api/v1/pdf/repair", () => {
  it("recovers a truncated file: the pages before the cut, with their text", async () => {
    const whole = await classicPdf(6, "Cut");
    const cut = whole.slice(0, Math.floor(whole.byteLength * 0.8));
    const { res, body } = await repair(cut);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.damage_found).toBe(true);
    expect(body.pages).toBeGreaterThanOrEqual(1);
    const out = await download(body.url);
    await assertClean(out, body.pages);
    const text = (await mupdfTexts(out)).join("\n");
    expect(text).toContain("Cut page 1");
  });

  it("recovers a file whose cross-reference offsets all point to the wrong place", async () => {
    const good = await classicPdf(3, "Offsets");
    const latin = bytesToLatin1(good);
    const broken = latin.replace(
      /(\n|\r)(\d{10}) (\d{5}) n/g,
      (_m, nl: string, off: string, gen: string) => `${nl}${String(Number(off) + 7).padStart(10, "0")} ${gen} n`,
    );
    expect(broken).not.toBe(latin);
    const bytes = latin1ToBytes(broken);
    const { res, body } = await repair(bytes);
    expect(res.status).toBe(200);
    expect(body.pages).toBe(3);
    const out = await download(body.url);
    await assertClean(out, 3);
    expect((await mupdfTexts(out)).map((t) => t.trim())).toEqual(["Offsets page 1", "Offsets page 2", "Offsets page 3"]);
  });

  it("a sound file comes back rewritten, damage_found false; 20 credits to a key", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 100 });
    const good = await makePdf({ pages: 4, label: "Sound" });
    const { res, body } = await repair(good, "sound.pdf", withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("20");
    expect(body).toMatchObject({ pages: 4, damage_found: false, credits_charged: 20 });
    expect(await balanceOf(acct.token)).toBe(80);
  });

  itWithCorpus("422 for an unrecoverable file and for an encrypted one, refunded", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 100 });
    const junk = await repair(new TextEncoder().encode("%PDF-1.7\nnothing here at all\n%%EOF"), "junk.pdf", withKey(acct.key));
    expect(junk.res.status).toBe(422);
    expect((await problem(junk.res)).code).toBe("unreadable_document");
    expect(junk.res.headers.get("X-Credits-Charged")).toBe("0");
    const locked = await repair(await corpusFile("pdfjs/encrypted/pr6531_2.pdf"), "locked.pdf", withKey(acct.key));
    expect(locked.res.status).toBe(422);
    expect((await problem(locked.res)).code).toBe("password_protected");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("415 for a missing file or a name that is not .pdf", async () => {
    const pdf = await makePdf({ pages: 1 });
    const wrong = await postForm(REPAIR, { file: new File([pdf], "scan.png") });
    expect(wrong.status).toBe(415);
    expect((await problem(wrong)).code).toBe("unsupported_media_type");
    expect((await postForm(REPAIR, {})).status).toBe(415);
  });
});
