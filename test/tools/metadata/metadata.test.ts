import { zipSync } from "fflate";
import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { pdfFile, postForm, problem, withKey } from "../../support/http";
import { scannedPdf } from "../../support/pdf.mjs";
import type { Answer } from "../../support/answers";

const METADATA = "/api/v1/analyze/metadata";

type MetadataBody = Answer<"pdf-metadata">;

async function metadata(file: File, headers: Record<string, string> = {}) {
  const res = await postForm(METADATA, { file }, headers);
  return { res, body: (await res.clone().json()) as MetadataBody };
}

/** Two pages of known words, Info fields set by hand, one image drawn twice and a second image once. */
async function knownPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const scan = await PDFDocument.load(await scannedPdf(1, 30));
  const [photo] = await doc.embedPages([scan.getPage(0)]);
  const jpeg = await doc.embedJpg(await extractJpeg(scan));
  const p1 = doc.addPage([400, 400]);
  p1.drawText("The quick brown fox jumps", { x: 20, y: 350, size: 14, font });
  p1.drawImage(jpeg, { x: 20, y: 20, width: 100, height: 100 });
  const p2 = doc.addPage([400, 400]);
  p2.drawText("over the lazy dog 42 times", { x: 20, y: 350, size: 14, font });
  p2.drawImage(jpeg, { x: 20, y: 20, width: 50, height: 50 });
  p2.drawPage(photo, { x: 200, y: 20, width: 100, height: 140 });
  doc.setTitle("Known title");
  doc.setAuthor("Ann Example");
  doc.setSubject("Counting words");
  // pdf-lib's setKeywords joins with spaces; the separators under test are written by hand.
  doc.context.lookup(doc.context.trailerInfo.Info, PDFDict).set(PDFName.of("Keywords"), PDFString.of("alpha, beta; gamma"));
  doc.setCreationDate(new Date("2024-03-05T10:20:30Z"));
  doc.setModificationDate(new Date("2024-04-06T11:21:31Z"));
  return doc.save();
}

/** The JPEG bytes of the scanned fixture's page image (a real DCT stream to embed elsewhere). */
async function extractJpeg(scan: PDFDocument): Promise<Uint8Array> {
  for (const [, obj] of scan.context.enumerateIndirectObjects()) {
    const dict = (obj as unknown as { dict?: { get(k: PDFName): unknown } }).dict;
    if (dict && String(dict.get(PDFName.of("Subtype"))) === "/Image") return (obj as unknown as { contents: Uint8Array }).contents;
  }
  throw new Error("no image in the scanned fixture");
}

function docx(paragraphs: string[], core: string): Uint8Array {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join("");
  const document = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:p><w:r><w:delText>deleted words here</w:delText></w:r></w:p></w:body></w:document>`;
  const coreXml = `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">${core}</cp:coreProperties>`;
  const enc = new TextEncoder();
  return zipSync({ "word/document.xml": enc.encode(document), "docProps/core.xml": enc.encode(coreXml), "[Content_Types].xml": enc.encode("<Types/>") });
}

describe("POST /api/v1/analyze/metadata", () => {
  it("PDF: Info fields, keywords as a list, ISO dates without zone, exact word/character/image counts", async () => {
    const bytes = await knownPdf();
    const { res, body } = await metadata(pdfFile(bytes, "known.pdf"));
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.metadata).toEqual({
      pages: 2,
      title: "Known title",
      author: "Ann Example",
      subject: "Counting words",
      keywords: ["alpha", "beta", "gamma"],
      is_encrypted: false,
      has_images: true,
      image_count: 2,
      word_count: 11,
      character_count: 42,
      creation_date: "2024-03-05T10:20:30",
      modification_date: "2024-04-06T11:21:31",
      language: null,
    });
    expect(body.info).toMatchObject({ file_size: bytes.byteLength, format: "pdf", filename: "known.pdf" });
    expect(body.credits_charged).toBe(0);
  });

  itWithCorpus("PDF from the corpus: PyMuPDF's expected metadata for 001003ED.pdf; 10 credits to a key", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 30 });
    const { res, body } = await metadata(pdfFile(await corpusFile("markdown/pymupdf/001003ED.pdf"), "001003ED.pdf"), withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(body.credits_charged).toBe(10);
    expect(await balanceOf(acct.token)).toBe(20);
    expect(body.metadata).toMatchObject({
      pages: 1,
      title: "RUBRIK_Editorial_01-06.indd",
      author: "Natalie Schaefer",
      subject: null,
      keywords: [],
      creation_date: "2007-01-13T19:14:00",
      modification_date: "2007-01-20T10:41:54",
      image_count: 15, // pdfimages -list lists 15
    });
    // pdftotext counts 386 whitespace-separated tokens, punctuation included.
    expect(body.metadata.word_count).toBeGreaterThan(340);
    expect(body.metadata.word_count).toBeLessThan(400);
  });

  itWithCorpus("falls back to XMP when the Info dictionary is silent", async () => {
    const { body } = await metadata(pdfFile(await corpusFile("verapdf/PDFA-1b/6-7-3-t05-fail-a.pdf"), "a.pdf"));
    expect(body.metadata.title).toBe("Test title");
    expect(body.metadata.author).toBe("veraPDF Consortium");
  });

  itWithCorpus.each(["qpdf/encrypted/enc-R2_V1_U-view_O-master.pdf", "qpdf/encrypted/V4-aes.pdf", "pdfjs/encrypted/pr6531_2.pdf"])(
    "encrypted %s: is_encrypted true with zeroed counts, not an error",
    async (file) => {
      const { res, body } = await metadata(pdfFile(await corpusFile(file), "locked.pdf"));
      expect(res.status).toBe(200);
      expect(body.metadata).toMatchObject({ is_encrypted: true, pages: 0, word_count: 0, character_count: 0, image_count: 0, has_images: false, title: null });
    },
  );

  it("DOCX: core.xml fields and counts from the body only (deleted text not counted)", async () => {
    const bytes = docx(
      ["Hello brave new world.", "Second paragraph &amp; more"],
      "<dc:title>Docx title</dc:title><dc:creator>Bo Writer</dc:creator><dc:subject>Subj</dc:subject><cp:keywords>one; two</cp:keywords><dcterms:created>2023-01-02T03:04:05Z</dcterms:created><dcterms:modified>2023-02-03T04:05:06Z</dcterms:modified>",
    );
    const { res, body } = await metadata(new File([bytes], "letter.docx"));
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.metadata).toEqual({
      pages: 1,
      title: "Docx title",
      author: "Bo Writer",
      subject: "Subj",
      keywords: ["one", "two"],
      is_encrypted: false,
      has_images: false,
      image_count: 0,
      word_count: 7,
      character_count: 39,
      creation_date: "2023-01-02T03:04:05",
      modification_date: "2023-02-03T04:05:06",
      language: null,
    });
    expect(body.info.format).toBe("docx");
  });

  itWithCorpus("DOCX from the corpus: docling's word_sample.docx", async () => {
    const { body } = await metadata(new File([await corpusFile("office/docx/word_sample.docx")], "word_sample.docx"));
    expect(body.metadata).toMatchObject({
      pages: 2,
      author: "Christoph Auer",
      image_count: 1,
      has_images: true,
      creation_date: "2024-10-09T12:43:00",
      modification_date: "2024-10-15T11:34:00",
    });
    expect(body.metadata.word_count).toBeGreaterThan(100);
  });

  it("TXT: UTF-8 and UTF-16 with a BOM count the same", async () => {
    const text = "Hello world\nsecond line — ünïcode";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    for (const bytes of [new TextEncoder().encode(text), utf16]) {
      const { res, body } = await metadata(new File([bytes], "notes.txt"));
      expect(res.status).toBe(200);
      expect(body.metadata).toMatchObject({ pages: 1, word_count: 5, character_count: 28, title: null, keywords: [] });
      expect(body.info.format).toBe("txt");
    }
  });

  it("500 engine_failed as problem+json for a corrupt PDF or DOCX, refunded", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 30 });
    for (const file of [pdfFile(new TextEncoder().encode("%PDF-1.4\nrubbish"), "bad.pdf"), new File([new Uint8Array([80, 75, 3, 4, 1, 2, 3])], "bad.docx")]) {
      const { res } = await metadata(file, withKey(acct.key));
      expect(res.status).toBe(500);
      expect((await problem(res)).code).toBe("engine_failed");
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
    }
    expect(await balanceOf(acct.token)).toBe(30);
  });

  it("415 for another file type", async () => {
    const res = await postForm(METADATA, { file: new File([new Uint8Array([1, 2, 3])], "photo.png") });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_media_type");
  });
});
