import { zlibSync } from "fflate";
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRef, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Answer } from "../../support/answers";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { call, download, file, postForm } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, makeImage, plainPdf } from "../../support/pdf.mjs";
import { unzip } from "../../support/pdf-read";
import { streamBytes } from "../../support/pdf-text";
import { withMupdf } from "../../support/mupdf";
import { expectRefused } from "../edit-metadata/read-back";

const PATH = "/api/v1/pdf/attachments";
type Body = Answer<"attachments">;
type Fields = Parameters<typeof postForm>[1];

const INVOICE = new TextEncoder().encode(`<?xml version="1.0"?><invoice><total>42.00</total>${"<line/>".repeat(500)}</invoice>`);
/** Bytes no compressor shrinks and every value 0-255, so a mangled byte shows. */
const BINARY = Uint8Array.from({ length: 70_001 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);

async function ok(fields: Fields): Promise<Body> {
  const res = await postForm(PATH, fields);
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ status: "completed", success: true });
  return body;
}

/** A PDF holding factur-x.xml (Data, with a description) and data.bin (no relationship). */
async function withTwo(): Promise<Uint8Array> {
  const body = await ok({
    file: file(await plainPdf(2), "doc.pdf"),
    action: "add",
    attachments: [file(INVOICE, "factur-x.xml", "text/xml"), file(BINARY, "data.bin", "application/octet-stream")],
    description: ["The invoice", "Raw data"],
    relationship: ["Data", "Unspecified"],
  });
  expect(body.file_url).toBe(body.url);
  return download(body.file_url as string);
}

/** The name tree and /AF as pdf-lib reads them: name -> [bytes, relationship, MIME, description]. */
async function pdfLibAttachments(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const names = doc.catalog.lookup(PDFName.of("Names"), PDFDict).lookup(PDFName.of("EmbeddedFiles"), PDFDict).lookup(PDFName.of("Names"), PDFArray);
  const out: Record<string, { data: Uint8Array; relationship?: string; mime?: string; description?: string; ref: string }> = {};
  for (let i = 0; i < names.size(); i += 2) {
    const key = (names.lookup(i) as unknown as { decodeText(): string }).decodeText();
    const ref = names.get(i + 1) as PDFRef;
    const spec = doc.context.lookup(ref, PDFDict);
    const stream = doc.context.lookup(spec.lookup(PDFName.of("EF"), PDFDict).get(PDFName.of("F")));
    const dict = (stream as unknown as { dict: PDFDict }).dict;
    out[key] = {
      data: streamBytes(stream),
      relationship: spec.lookup(PDFName.of("AFRelationship"))?.toString().slice(1),
      mime: dict.lookup(PDFName.of("Subtype"))?.toString().slice(1).replace(/#2F/gi, "/"),
      description: (spec.lookup(PDFName.of("Desc")) as unknown as { decodeText?(): string } | undefined)?.decodeText?.(),
      ref: ref.toString(),
    };
  }
  const af = doc.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  return { files: out, af: af ? af.asArray().map((r) => r.toString()) : [] };
}

describe("attachments: add, list, extract", () => {
  it("adds two attachments: name tree, /AF for the PDF/A-3 relationships, bytes intact (pdf-lib and MuPDF)", async () => {
    const out = await withTwo();
    const { files, af } = await pdfLibAttachments(out);
    expect(Object.keys(files).sort()).toEqual(["data.bin", "factur-x.xml"]);
    expect(files["factur-x.xml"]).toMatchObject({ relationship: "Data", mime: "text/xml", description: "The invoice" });
    expect(files["data.bin"]).toMatchObject({ relationship: "Unspecified", mime: "application/octet-stream", description: "Raw data" });
    expect(files["factur-x.xml"].data).toEqual(INVOICE);
    expect(files["data.bin"].data).toEqual(BINARY);
    expect(af.sort()).toEqual([files["factur-x.xml"].ref, files["data.bin"].ref].sort());
    const viaMupdf = await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(out, "application/pdf").asPDF();
      if (!doc) throw new Error("not a PDF");
      try {
        return Object.fromEntries(Object.entries(doc.getEmbeddedFiles()).map(([k, v]) => [k, doc.getEmbeddedFileContents(v)?.asUint8Array().slice()]));
      } finally {
        doc.destroy();
      }
    });
    expect(viaMupdf["data.bin"]).toEqual(BINARY);
    expect(viaMupdf["factur-x.xml"]).toEqual(INVOICE);
  });

  it("lists them: name, size, MIME type, description, dates and relationship", async () => {
    const body = await ok({ file: file(await withTwo(), "doc.pdf"), action: "list" });
    expect(body.file_url).toBeUndefined();
    const byName = Object.fromEntries((body.attachments ?? []).map((a) => [a.name, a]));
    expect(byName["factur-x.xml"]).toMatchObject({ size: INVOICE.byteLength, mime_type: "text/xml", description: "The invoice", relationship: "Data" });
    expect(byName["data.bin"]).toMatchObject({
      size: BINARY.byteLength,
      mime_type: "application/octet-stream",
      description: "Raw data",
      relationship: "Unspecified",
    });
    for (const a of body.attachments ?? []) {
      expect(Math.abs(Date.parse(a.creation_date ?? "") - Date.now())).toBeLessThan(120_000);
      expect(a.modification_date).toBe(a.creation_date);
    }
    const none = await ok({ file: file(await plainPdf(1), "doc.pdf"), action: "list" });
    expect(none.attachments).toEqual([]);
  });

  it("extracts one by name as the file itself, identical bytes", async () => {
    const pdf = await withTwo();
    const body = await ok({ file: file(pdf, "doc.pdf"), action: "extract", name: "data.bin" });
    expect(body.extracted).toEqual([{ name: "data.bin", size: BINARY.byteLength, mime_type: "application/octet-stream" }]);
    const res = await call(body.file_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain('filename="data.bin"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BINARY);
    const xml = await ok({ file: file(pdf, "doc.pdf"), action: "extract", name: "factur-x.xml" });
    expect(await download(xml.file_url as string)).toEqual(INVOICE);
  });

  it("extracts all as a ZIP with identical bytes", async () => {
    const body = await ok({ file: file(await withTwo(), "doc.pdf"), action: "extract" });
    const res = await call(body.file_url as string);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    const entries = unzip(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(["data.bin", "factur-x.xml"]);
    expect(entries["data.bin"]).toEqual(BINARY);
    expect(entries["factur-x.xml"]).toEqual(INVOICE);
  });

  it("adding a name the PDF holds replaces it, and its old entry leaves /AF; one relationship applies to every file", async () => {
    const replaced = await ok({
      file: file(await withTwo(), "doc.pdf"),
      action: "add",
      attachments: [file(new TextEncoder().encode("<v2/>"), "factur-x.xml", "text/xml")],
      relationship: "alternative",
    });
    const out = await download(replaced.file_url as string);
    const { files, af } = await pdfLibAttachments(out);
    expect(new TextDecoder().decode(files["factur-x.xml"].data)).toBe("<v2/>");
    expect(files["factur-x.xml"].relationship).toBe("Alternative");
    expect(af.sort()).toEqual([files["factur-x.xml"].ref, files["data.bin"].ref].sort());
    expect(replaced.attachments?.map((a) => a.name).sort()).toEqual(["data.bin", "factur-x.xml"]);
    const shared = await ok({
      file: file(await plainPdf(1), "doc.pdf"),
      action: "add",
      attachments: [file(INVOICE, "a.xml", ""), file(INVOICE, "C:\\Users\\me\\b.csv", "")],
      relationship: "Source",
    });
    expect(shared.attachments?.map((a) => [a.name, a.relationship, a.mime_type])).toEqual([
      ["a.xml", "Source", "text/xml"],
      ["b.csv", "Source", "text/csv"],
    ]);
    // Without a relationship: in the name tree, not associated.
    const plain = await ok({ file: file(await plainPdf(1), "doc.pdf"), action: "add", attachments: file(INVOICE, "c.xml") });
    const read = await pdfLibAttachments(await download(plain.file_url as string));
    expect(Object.keys(read.files)).toEqual(["c.xml"]);
    expect(read.af).toEqual([]);
  });
});

describe("attachments: errors", () => {
  it("422 attachments_required for add without attachments", async () => {
    await expectRefused(PATH, { file: file(await plainPdf(1), "a.pdf"), action: "add" }, 422, "attachments_required");
    await expectRefused(PATH, { file: file(await plainPdf(1), "a.pdf"), action: "add", attachments: "not a file" }, 422, "validation_failed");
  });

  it("422 attachment_not_found naming the unknown name; extract all from a PDF without attachments too", async () => {
    const detail = await expectRefused(PATH, { file: file(await withTwo(), "a.pdf"), action: "extract", name: "missing.txt" }, 422, "attachment_not_found");
    expect(detail).toContain("missing.txt");
    expect(detail).toContain("factur-x.xml");
    await expectRefused(PATH, { file: file(await plainPdf(1), "a.pdf"), action: "extract" }, 422, "attachment_not_found");
  });

  it("422 validation_failed for an unknown action or relationship, mismatched counts, duplicate names", async () => {
    const pdf = await plainPdf(1);
    await expectRefused(PATH, { file: file(pdf, "a.pdf"), action: "delete" }, 422, "validation_failed");
    await expectRefused(PATH, { file: file(pdf, "a.pdf") }, 422, "validation_failed");
    await expectRefused(
      PATH,
      { file: file(pdf, "a.pdf"), action: "add", attachments: file(INVOICE, "a.xml"), relationship: "Owner" },
      422,
      "validation_failed",
    );
    await expectRefused(
      PATH,
      {
        file: file(pdf, "a.pdf"),
        action: "add",
        attachments: [file(INVOICE, "a.xml"), file(INVOICE, "b.xml"), file(INVOICE, "c.xml")],
        description: ["one", "two"],
      },
      422,
      "validation_failed",
    );
    await expectRefused(
      PATH,
      { file: file(pdf, "a.pdf"), action: "add", attachments: [file(INVOICE, "a.xml"), file(INVOICE, "dir/a.xml")] },
      422,
      "validation_failed",
    );
  });

  itWithCorpus("pdf.js's encrypted PDF with an attachment: 422 password_protected, nothing listed", async () => {
    await expectRefused(PATH, { file: file(await corpusFile("pdfjs/encrypted/encrypted-attachment.pdf"), "a.pdf"), action: "list" }, 422, "password_protected");
  });

  it("encrypted input 422 password_protected, non-PDF 415, corrupt PDF 422 unreadable_document, for every action", async () => {
    for (const action of ["list", "add", "extract"]) {
      const extra = action === "add" ? { attachments: file(INVOICE, "a.xml") } : {};
      await expectRefused(PATH, { file: file(await encryptedPdf(), "a.pdf"), action, ...extra }, 422, "password_protected");
      await expectRefused(PATH, { file: file(await encryptedPdf(undefined, { user: "" }), "a.pdf"), action, ...extra }, 422, "password_protected");
      await expectRefused(PATH, { file: file(await makeImage("png", 8, 8, [0, 0, 255]), "a.pdf"), action, ...extra }, 415, "unsupported_media_type");
      await expectRefused(PATH, { file: file(await plainPdf(1), "a.docx"), action, ...extra }, 415, "unsupported_media_type");
      await expectRefused(PATH, { file: file(corruptPdf(), "a.pdf"), action, ...extra }, 422, "unreadable_document");
    }
  });
});

/** One attachment of 40 MiB of zeros in 40 KB of Flate data, its /Params /Size lying (or absent). */
async function bombPdf(declaredSize?: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await plainPdf(1));
  const packed = zlibSync(new Uint8Array(40 * 1024 * 1024), { level: 9 });
  const dict: Record<string, unknown> = { Type: "EmbeddedFile", Filter: "FlateDecode" };
  if (declaredSize !== undefined) dict.Params = { Size: declaredSize };
  const stream = doc.context.register(doc.context.flateStream(new Uint8Array(0), {}));
  doc.context.assign(stream, doc.context.stream(packed, dict as never));
  const spec = doc.context.register(doc.context.obj({ Type: "Filespec", F: PDFString.of("zeros.bin"), EF: { F: stream } }));
  const tree = doc.context.obj({ Names: [PDFString.of("zeros.bin"), spec] });
  doc.catalog.set(PDFName.of("Names"), doc.context.obj({ EmbeddedFiles: tree }));
  return doc.save();
}

describe("attachments: decompression bombs", () => {
  it("an attachment that inflates past the extract limit is a 413, nothing charged, whatever its /Params say; list does not decode it", async () => {
    for (const declared of [undefined, 10]) {
      const pdf = await bombPdf(declared);
      expect(pdf.byteLength).toBeLessThan(200_000);
      await expectRefused(PATH, { file: file(pdf, "a.pdf"), action: "extract" }, 413, "payload_too_large");
      await expectRefused(PATH, { file: file(pdf, "a.pdf"), action: "extract", name: "zeros.bin" }, 413, "payload_too_large");
      const listed = await ok({ file: file(pdf, "a.pdf"), action: "list" });
      expect(listed.attachments).toEqual([expect.objectContaining({ name: "zeros.bin", size: declared ?? null })]);
    }
    await expectRefused(PATH, { file: file(await bombPdf(64 * 1024 * 1024), "a.pdf"), action: "extract" }, 413, "payload_too_large");
  });
});

describe("attachments: credits", () => {
  it("charges 10 with a key for add, refunds failures, 0 anonymously", async () => {
    await expectMetering(
      PATH,
      async () => ({ file: file(await plainPdf(1), "a.pdf"), action: "add", attachments: file(INVOICE, "a.xml") }),
      async () => ({ file: file(await plainPdf(1), "a.pdf"), action: "add" }),
      10,
      "free",
    );
  });

  it("list and extract cost the same 10", async () => {
    const pdf = await withTwo();
    await expectMetering(
      PATH,
      async () => ({ file: file(pdf, "a.pdf"), action: "list" }),
      async () => ({ file: file(pdf, "a.pdf"), action: "extract", name: "nope" }),
      10,
      "free",
    );
    await expectMetering(
      PATH,
      async () => ({ file: file(pdf, "a.pdf"), action: "extract" }),
      async () => ({ file: file(corruptPdf(), "a.pdf"), action: "extract" }),
      10,
      "free",
    );
  });
});
