import { degrees, PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import type { Answer } from "../../support/answers";
import { download, file, postForm, problem, withKey } from "../../support/http";
import { concatPdfs, encryptedPdf, layoutPdf, makeImage, scanOf } from "../../support/pdf.mjs";
import { bare, matchWords, pageWords } from "./words";

// OCR to searchable PDF, checked as a reader of the output would: scans are
// made in the test (a text PDF rendered at 300 dpi to an image-only PDF),
// and the output's text, read back by the test-only MuPDF, must hold the
// source's words where the source printed them.

const PATH = "/api/v1/pdf/ocr";
type OcrBody = Answer<"ocr-pdf">;

const lines = (texts: string[], size = 12) => layoutPdf([texts.map((text, i) => ({ text, x: 72, y: 100 + i * 24, size }))]);

const ENGLISH = [
  "The quarterly survey of river levels was finished early this year.",
  "Every station along the valley reported higher water than in spring,",
  "and the engineers recommend that the northern gates open twice a week",
  "until the autumn rains have passed. A full table follows on page four.",
];
const GERMAN = [
  "Die Größe der Übungsräume ärgert Jürgen seit Jahren sehr.",
  "Über die Straße öffnet der Bäcker früh, süße Brötchen gibt es täglich.",
  "Schöne Grüße aus München und viel Glück für die Prüfung.",
];
const FRENCH = [
  "Le garçon à la fenêtre préfère le thé très chaud le matin.",
  "Déjà sa sœur écrit une lettre à côté de la cathédrale.",
  "Où est la clé du château? Voilà une leçon pour l'élève.",
];

async function ocr(fields: Record<string, string | File>, key?: string) {
  const res = await postForm(PATH, fields, key ? withKey(key) : {});
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as OcrBody;
  return { res, body, out: await download(body.file_url) };
}

async function expectReadBack(source: Uint8Array, out: Uint8Array) {
  const result = matchWords(await pageWords(source), await pageWords(out));
  expect(result.found, `missing: ${result.missing.join(" ")}`).toBeGreaterThanOrEqual(0.95);
  expect(result.placed).toBeGreaterThanOrEqual(0.95);
  // Not merely touching: the layer's word covers the printed word (same font size and width, within a few points).
  expect(result.meanIou).toBeGreaterThan(0.75);
}

describe("OCR to searchable PDF", () => {
  it("gives an English 300 dpi scan a text layer on the words of the picture, the original bytes kept, for 40 credits", async () => {
    const source = await lines(ENGLISH);
    const scan = await scanOf(source, { dpi: 300 });
    expect(await pageWords(scan)).toEqual([]);
    const acct = await accountWithKey({ credits: 500 });
    const { res, body, out } = await ocr({ file: file(scan, "scan.pdf") }, acct.key);
    expect(body).toMatchObject({ status: "completed", pages: 1, pages_ocred: [1], pages_skipped: [], languages: ["eng"] });
    expect(body.word_count).toBeGreaterThanOrEqual(45);
    expect(body.mean_confidence).toBeGreaterThan(0.8);
    expect(res.headers.get("X-Credits-Charged")).toBe("40");
    expect(await balanceOf(acct.token)).toBe(460);
    await expectReadBack(source, out);
    // Saved incrementally: the scan's bytes (its image and content stream) are the output's first bytes, unchanged.
    expect(Buffer.from(out.subarray(0, scan.byteLength)).equals(Buffer.from(scan))).toBe(true);
  });

  it.each([
    ["deu", GERMAN, /[äöüßÄÖÜ]/],
    ["fra", FRENCH, /[éèçàêôœ]/],
  ])("reads a %s scan with its own model, accents and ß intact", async (lang, text, special) => {
    const source = await lines(text);
    const { body, out } = await ocr({ file: file(await scanOf(source, { dpi: 300 }), "scan.pdf"), languages: lang });
    expect(body.languages).toEqual([lang]);
    await expectReadBack(source, out);
    const read = (await pageWords(out)).map((w) => bare(w.text));
    const specials = (await pageWords(source)).map((w) => bare(w.text)).filter((w) => special.test(w));
    expect(specials.length).toBeGreaterThan(5);
    expect(specials.filter((w) => read.includes(w)).length / specials.length).toBeGreaterThanOrEqual(0.95);
  });

  it("reads a German scan with eng+deu, each line from the surer reading", async () => {
    const source = await lines(GERMAN);
    const { body, out } = await ocr({ file: file(await scanOf(source, { dpi: 300 }), "scan.pdf"), languages: "eng+deu" });
    expect(body.languages).toEqual(["eng", "deu"]);
    await expectReadBack(source, out);
  });

  it("leaves a page that has text as it is, and reads it with force", async () => {
    const typed = await lines(["This page was typed and has its own text layer."]);
    const scan = await scanOf(await lines(ENGLISH), { dpi: 300 });
    const { body } = await ocr({ file: file(await concatPdfs(typed, scan), "mixed.pdf") });
    expect(body).toMatchObject({ pages: 2, pages_ocred: [2], pages_skipped: [1] });
    const forced = await ocr({ file: file(typed, "typed.pdf"), force: "true" });
    expect(forced.body).toMatchObject({ pages_ocred: [1], pages_skipped: [] });
    const words = (await pageWords(forced.out)).map((w) => bare(w.text));
    // The page's own text stays, and the OCR layer adds its reading.
    expect(words.filter((w) => w === "typed").length).toBe(2);
  });

  it.each([90, 270])("reads a scan turned %i°: the layer holds its words", async (turn) => {
    const { out } = await ocr({ file: file(await scanOf(await lines(ENGLISH), { dpi: 300, turn }), "turned.pdf") });
    const read = (await pageWords(out)).map((w) => bare(w.text));
    const source = (await pageWords(await lines(ENGLISH))).map((w) => bare(w.text));
    expect(source.filter((w) => read.includes(w)).length / source.length).toBeGreaterThanOrEqual(0.95);
  });

  it("places the words of a page with /Rotate where a reader sees them", async () => {
    const source = await lines(ENGLISH);
    const scan = await PDFDocument.load(await scanOf(source, { dpi: 300 }));
    // The same picture drawn on a page stored turned: /Rotate 90 with the content rotated back, so it displays upright.
    const stored = await PDFDocument.create();
    const [embedded] = await stored.embedPdf(scan, [0]);
    const page = stored.addPage([embedded.height, embedded.width]);
    page.drawPage(embedded, { x: embedded.height, y: 0, rotate: degrees(90) });
    page.setRotation(degrees(90));
    const bytes = await stored.save();
    const { out } = await ocr({ file: file(bytes, "rotated.pdf") });
    await expectReadBack(source, out);
  });

  it("reads only the pages asked for", async () => {
    const scan = await scanOf(await concatPdfs(await lines(["First scanned page here."]), await lines(["Second scanned page here."])), { dpi: 300 });
    const { body, out } = await ocr({ file: file(scan, "two.pdf"), pages: "2" });
    expect(body).toMatchObject({ pages: 2, pages_ocred: [2], pages_skipped: [] });
    expect(await pageWords(out, 0)).toEqual([]);
    expect((await pageWords(out, 1)).map((w) => bare(w.text))).toContain("second");
  });
});

describe("OCR to searchable PDF: refusals cost nothing", () => {
  const refused = async (fields: Record<string, string | File>, status: number, code: string) => {
    const acct = await accountWithKey({ credits: 100 });
    const res = await postForm(PATH, fields, withKey(acct.key));
    expect(res.status).toBe(status);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    const p = await problem(res);
    expect(p.code).toBe(code);
    expect(await balanceOf(acct.token)).toBe(100);
    return p;
  };

  it("an unknown language is a 422 naming the allowed ones", async () => {
    const scan = await scanOf(await lines(["Short text."]), { dpi: 150 });
    const p = await refused({ file: file(scan, "scan.pdf"), languages: "eng,klingon" }, 422, "validation_failed");
    expect(p.errors?.[0]).toMatchObject({ field: "languages" });
    for (const code of ["eng", "deu", "fra", "spa", "ita", "por", "nld"]) expect(p.detail).toContain(code);
  });

  it("a file that is not a PDF is a 415", async () => {
    await refused({ file: file(await makeImage("png", 40, 40, [200, 10, 10]), "picture.pdf", "application/pdf") }, 415, "unsupported_media_type");
  });

  it("an encrypted PDF is a 422 password_protected", async () => {
    const locked = await encryptedPdf(await scanOf(await lines(["Locked text."]), { dpi: 100 }));
    await refused({ file: file(locked, "locked.pdf") }, 422, "password_protected");
  });

  it("a page list beyond the document is a 422 on pages", async () => {
    const scan = await scanOf(await lines(["Short text."]), { dpi: 100 });
    const p = await refused({ file: file(scan, "scan.pdf"), pages: "3" }, 422, "validation_failed");
    expect(p.errors?.[0]).toMatchObject({ field: "pages" });
  });

  it("a document whose pages all have text is a 422 already_searchable", async () => {
    await refused({ file: file(await lines(["Typed already."]), "typed.pdf") }, 422, "already_searchable");
  });
});

describe("OCR to searchable PDF: a model kept in R2", () => {
  // The vitest pool does not seed the OCR Worker's OCR_MODELS bucket (the e2e test seeds wrangler dev's, as a deploy seeds the real one).
  it("answers 503 ocr_unavailable naming the seed script when the bucket lacks it, and charges nothing", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const scan = await scanOf(await lines(["El niño come."]), { dpi: 150 });
    const res = await postForm(PATH, { file: file(scan, "scan.pdf"), languages: "spa" }, withKey(acct.key));
    expect(res.status).toBe(503);
    const p = await problem(res);
    expect(p.code).toBe("ocr_unavailable");
    expect(p.detail).toContain("ocr-models-seed");
    expect(await balanceOf(acct.token)).toBe(100);
  });
});
