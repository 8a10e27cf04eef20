import { PDFDict, PDFDocument, PDFName, PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Answer } from "../../support/answers";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { download, file, postForm } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, makeImage, plainPdf } from "../../support/pdf.mjs";
import { withMupdf } from "../../support/mupdf";
import { expectRefused, mupdfInfo, occurrences, pdfLibMetadata, xmpValues } from "./read-back";

const PATH = "/api/v1/pdf/metadata";
const READ = "/api/v1/analyze/metadata";
type Body = Answer<"edit-metadata">;
type Fields = Record<string, string | File>;

async function edit(pdf: Uint8Array, fields: Fields): Promise<{ body: Body; out: Uint8Array }> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), ...fields });
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.file_url).toBe(body.url);
  return { body, out: await download(body.file_url) };
}

async function readTool(pdf: Uint8Array): Promise<Answer<"pdf-metadata">["metadata"]> {
  const res = await postForm(READ, { file: file(pdf, "out.pdf") });
  const body = (await res.json()) as Answer<"pdf-metadata">;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.metadata;
}

const PDFAID = "http://www.aiim.org/pdfa/ns/id/";
/** A packet as another producer writes it: dc bound to another prefix, title as an attribute, PDF/A id and a document id to keep. */
const FOREIGN_XMP = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="uuid:1234" xmlns:pdfaid="${PDFAID}" pdfaid:part="2" pdfaid:conformance="B"/>
<rdf:Description rdf:about="uuid:1234" xmlns:purl="http://purl.org/dc/elements/1.1/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Old tool">
<purl:title><rdf:Alt><rdf:li xml:lang="x-default">Old XMP title</rdf:li></rdf:Alt></purl:title>
<purl:creator><rdf:Seq><rdf:li>Old author</rdf:li></rdf:Seq></purl:creator>
<xmpMM:DocumentID>uuid:keep-me</xmpMM:DocumentID>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;

/** Replaces pdf-lib's default Info entries with exactly `info`. */
function setInfo(doc: PDFDocument, info: Record<string, string>): void {
  const dict = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  for (const key of dict.keys()) dict.delete(key);
  for (const [k, v] of Object.entries(info)) dict.set(PDFName.of(k), PDFString.of(v));
}

async function withXmp(packet: string, info: Record<string, string> = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await plainPdf(1), { updateMetadata: false });
  const stream = doc.context.stream(packet, { Type: "Metadata", Subtype: "XML" });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
  setInfo(doc, info);
  return doc.save({ useObjectStreams: false });
}

/** One plain page whose Info dictionary holds exactly `info`, and no XMP. */
async function withInfo(info: Record<string, string>): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await plainPdf(1), { updateMetadata: false });
  setInfo(doc, info);
  return doc.save();
}

const EVERY = {
  title: "Quarterly report — Ünïcode ✓ & <tags>",
  author: "Ann Example",
  subject: "Revenue, Q3",
  keywords: "finance, q3 ,  2024,finance",
  creator: "Report Builder 2.1",
  producer: "Our Producer 1.0",
  creation_date: "2024-05-01T10:20:30+02:00",
  modification_date: "2024-06-02T08:09:10Z",
  language: "de-CH",
  custom: JSON.stringify({ Department: "Legal", "Case.Number": "A-17" }),
};

describe("edit metadata: every field", () => {
  it("sets every field on a PDF without XMP: Info, /Lang and a new XMP packet agree, read back by our reader, pdf-lib and MuPDF", async () => {
    const { body, out } = await edit(await withInfo({ Title: "Old" }), EVERY);
    expect(body).toMatchObject({ status: "completed", success: true });
    expect(body.job_id).toMatch(/\S/);
    expect(body.metadata).toEqual({
      title: EVERY.title,
      author: "Ann Example",
      subject: "Revenue, Q3",
      keywords: ["finance", "q3", "2024"],
      creator: "Report Builder 2.1",
      producer: "Our Producer 1.0",
      creation_date: "2024-05-01T10:20:30+02:00",
      modification_date: "2024-06-02T08:09:10Z",
      language: "de-CH",
      custom: { Department: "Legal", "Case.Number": "A-17" },
      xmp: "created",
    });

    const read = await readTool(out);
    expect(read).toMatchObject({
      title: EVERY.title,
      author: "Ann Example",
      subject: "Revenue, Q3",
      keywords: ["finance", "q3", "2024"],
      creation_date: "2024-05-01T10:20:30",
      modification_date: "2024-06-02T08:09:10",
    });

    const { info, lang, xmp } = await pdfLibMetadata(out);
    expect(info).toEqual({
      Title: EVERY.title,
      Author: "Ann Example",
      Subject: "Revenue, Q3",
      Keywords: "finance, q3, 2024",
      Creator: "Report Builder 2.1",
      Producer: "Our Producer 1.0",
      CreationDate: "D:20240501102030+02'00",
      ModDate: "D:20240602080910Z",
      Department: "Legal",
      "Case.Number": "A-17",
    });
    expect(lang).toBe("de-CH");
    expect(await mupdfInfo(out, ["Title", "Author", "Subject", "Keywords", "Creator", "Producer", "Department"])).toEqual({
      Title: EVERY.title,
      Author: "Ann Example",
      Subject: "Revenue, Q3",
      Keywords: "finance, q3, 2024",
      Creator: "Report Builder 2.1",
      Producer: "Our Producer 1.0",
      Department: "Legal",
    });

    expect(xmp).not.toBeNull();
    const packet = xmp as string;
    expect(xmpValues(packet, "dc:title")).toEqual([EVERY.title]);
    expect(xmpValues(packet, "dc:creator")).toEqual(["Ann Example"]);
    expect(xmpValues(packet, "dc:description")).toEqual(["Revenue, Q3"]);
    expect(xmpValues(packet, "dc:subject")).toEqual(["finance", "q3", "2024"]);
    expect(xmpValues(packet, "dc:language")).toEqual(["de-CH"]);
    expect(xmpValues(packet, "pdf:Keywords")).toEqual(["finance, q3, 2024"]);
    expect(xmpValues(packet, "xmp:CreatorTool")).toEqual(["Report Builder 2.1"]);
    expect(xmpValues(packet, "pdf:Producer")).toEqual(["Our Producer 1.0"]);
    expect(xmpValues(packet, "xmp:CreateDate")).toEqual(["2024-05-01T10:20:30+02:00"]);
    expect(xmpValues(packet, "xmp:ModifyDate")).toEqual(["2024-06-02T08:09:10Z"]);
    const metadataDate = Date.parse(xmpValues(packet, "xmp:MetadataDate")?.[0] ?? "");
    expect(Math.abs(metadataDate - Date.now())).toBeLessThan(120_000);
    expect(packet).toMatch(/^<\?xpacket begin=/);
    expect(packet).toMatch(/<\?xpacket end="w"\?>$/);
  });

  it("updates an existing XMP packet: the old values go (whatever prefix), everything else stays", async () => {
    const { body, out } = await edit(await withXmp(FOREIGN_XMP), { title: "New title", author: "New author" });
    expect(body.metadata.xmp).toBe("updated");
    const packet = (await pdfLibMetadata(out)).xmp as string;
    expect(packet).not.toContain("Old XMP title");
    expect(packet).not.toContain("Old author");
    expect(occurrences(packet, "purl:title") + occurrences(packet, "dc:title")).toBe(1);
    expect(xmpValues(packet, "dc:title")).toEqual(["New title"]);
    expect(xmpValues(packet, "dc:creator")).toEqual(["New author"]);
    // Kept: the PDF/A identification, the document id, and the creator tool (now in Info as well).
    expect(packet).toMatch(/pdfaid:part="2"/);
    expect(packet).toContain("uuid:keep-me");
    expect(occurrences(packet, "xmp:CreatorTool")).toBe(1);
    expect(xmpValues(packet, "xmp:CreatorTool")).toEqual(["Old tool"]);
    expect((await pdfLibMetadata(out)).info.Creator).toBe("Old tool");
    // Every description names the same resource.
    expect([...packet.matchAll(/rdf:about="([^"]*)"/g)].map((m) => m[1])).toEqual(["uuid:1234", "uuid:1234", "uuid:1234"]);
  });

  it("fields not sent are kept, and copied to whichever of Info and XMP lacked them", async () => {
    const { out } = await edit(await withInfo({ Title: "Info title", Subject: "Info subject" }), { author: "Someone" });
    const { info, xmp } = await pdfLibMetadata(out);
    expect(info).toMatchObject({ Title: "Info title", Subject: "Info subject", Author: "Someone" });
    expect(xmpValues(xmp as string, "dc:title")).toEqual(["Info title"]);
    expect(xmpValues(xmp as string, "dc:description")).toEqual(["Info subject"]);
    const fromXmp = await edit(await withXmp(FOREIGN_XMP), { subject: "S" });
    expect((await pdfLibMetadata(fromXmp.out)).info).toMatchObject({ Title: "Old XMP title", Author: "Old author", Creator: "Old tool", Subject: "S" });
  });

  it("values are trimmed; an empty custom field is no custom keys", async () => {
    const { body, out } = await edit(await plainPdf(1), { title: "  Padded  ", custom: "" });
    expect(body.metadata.title).toBe("Padded");
    const { info, xmp } = await pdfLibMetadata(out);
    expect(info.Title).toBe("Padded");
    expect(xmpValues(xmp as string, "dc:title")).toEqual(["Padded"]);
  });

  it("the modification date defaults to now; dates keep the precision and zone they are given", async () => {
    const { body, out } = await edit(await plainPdf(1), { creation_date: "2020-02-29" });
    expect(Math.abs(Date.parse(body.metadata.modification_date ?? "") - Date.now())).toBeLessThan(120_000);
    const { info, xmp } = await pdfLibMetadata(out);
    expect(info.CreationDate).toBe("D:20200229");
    expect(xmpValues(xmp as string, "xmp:CreateDate")).toEqual(["2020-02-29"]);
    const zoned = await edit(await plainPdf(1), { creation_date: "2023-12-31T23:59:59-05:30", modification_date: "2024-01-01T00:00:00" });
    const read = await pdfLibMetadata(zoned.out);
    expect(read.info).toMatchObject({ CreationDate: "D:20231231235959-05'30", ModDate: "D:20240101000000" });
    expect(xmpValues(read.xmp as string, "xmp:CreateDate")).toEqual(["2023-12-31T23:59:59-05:30"]);
    expect(xmpValues(read.xmp as string, "xmp:ModifyDate")).toEqual(["2024-01-01T00:00:00"]);
  });
});

describe("edit metadata: PDF/A files from veraPDF's corpus", () => {
  const files: [string, number][] = [
    ["verapdf/PDFA-1b/6-2-2-t01-pass-a.pdf", 1],
    ["verapdf/PDFA-2b/6-2-3-t02-pass-a.pdf", 2],
    ["verapdf/PDFA-4/6-2-3-t01-pass-a.pdf", 4],
    ["verapdf/generated/gs_pdfa2b_with_outputintent.pdf", 2],
  ];
  for (const [path, part] of files) {
    itWithCorpus(`${path}: still PDF/A-${part} by our check, its packet updated with Info in agreement`, async () => {
      const { body, out } = await edit(await corpusFile(path), { title: "Edited title", author: "Edited author", keywords: "x, y" });
      expect(body.metadata.xmp).toBe("updated");
      const res = await postForm("/api/v1/pdf/pdfa/validate", { file: file(out, "out.pdf") });
      const check = (await res.json()) as Answer<"pdfa-validate">;
      expect(res.status).toBe(200);
      expect(check.issues).toEqual([]);
      expect(check).toMatchObject({ likely_pdfa: true, pdfa_part: part });
      const { info, xmp } = await pdfLibMetadata(out);
      expect(info).toMatchObject({ Title: "Edited title", Author: "Edited author", Keywords: "x, y" });
      const packet = xmp as string;
      expect(xmpValues(packet, "dc:title")).toEqual(["Edited title"]);
      expect(xmpValues(packet, "dc:creator")).toEqual(["Edited author"]);
      expect(occurrences(packet, "dc:title")).toBe(1);
      for (const [key, q] of [
        ["Producer", "pdf:Producer"],
        ["Creator", "xmp:CreatorTool"],
      ] as const) {
        if (info[key] !== undefined) expect(xmpValues(packet, q), key).toEqual([info[key]]);
      }
      expect(await readTool(out)).toMatchObject({ title: "Edited title", author: "Edited author", keywords: ["x", "y"] });
    });
  }
});

describe("edit metadata: removal by an empty value", () => {
  it("an empty field removes it from Info, the catalog and XMP", async () => {
    const first = await edit(await plainPdf(1), EVERY);
    const { body, out } = await edit(first.out, {
      title: "",
      keywords: "",
      creation_date: "",
      modification_date: "",
      language: "",
      custom: JSON.stringify({ Department: "" }),
    });
    expect(body.metadata).toMatchObject({
      title: null,
      keywords: [],
      creation_date: null,
      modification_date: null,
      language: null,
      custom: { "Case.Number": "A-17" },
    });
    const { info, lang, xmp } = await pdfLibMetadata(out);
    for (const key of ["Title", "Keywords", "CreationDate", "ModDate", "Department"]) expect(info, key).not.toHaveProperty(key);
    expect(info).toMatchObject({ Author: "Ann Example", Subject: "Revenue, Q3", "Case.Number": "A-17" });
    expect(lang).toBeNull();
    const packet = xmp as string;
    for (const q of ["dc:title", "dc:subject", "pdf:Keywords", "xmp:CreateDate", "xmp:ModifyDate", "dc:language"]) expect(occurrences(packet, q), q).toBe(0);
    expect(xmpValues(packet, "dc:creator")).toEqual(["Ann Example"]);
    const read = await readTool(out);
    expect(read).toMatchObject({ title: null, keywords: [], creation_date: null, modification_date: null, author: "Ann Example" });
    // The old values are gone from the file itself, not only from its last revision.
    const raw = new TextDecoder("latin1").decode(out);
    expect(raw).not.toContain("Department");
    await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(out, "application/pdf").asPDF();
      try {
        expect(doc?.countVersions()).toBe(1);
      } finally {
        doc?.destroy();
      }
    });
  });
});

describe("edit metadata: errors", () => {
  const pdf = () => plainPdf(1);
  const dates = ["2024-13-01", "2023-02-29", "yesterday", "2024-05-01T25:00:00Z", "2024-05-01T10:00:00+15:00", "01/05/2024"];
  for (const value of dates) {
    it(`422 invalid_date for ${value}`, async () => {
      const detail = await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), creation_date: value }, 422, "invalid_date");
      expect(detail).toContain("creation_date");
    });
  }
  it("422 invalid_date for modification_date too", async () => {
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), modification_date: "2024-02-30" }, 422, "invalid_date");
  });

  const keys = ["Has Space", "a/b", "tab#1", "", "x".repeat(128), "Ünïcode", "Title", "ModDate", "Trapped"];
  for (const key of keys) {
    it(`422 invalid_metadata_key for custom key ${JSON.stringify(key).slice(0, 20)}`, async () => {
      await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), custom: JSON.stringify({ [key]: "v" }) }, 422, "invalid_metadata_key");
    });
  }

  it("custom: malformed JSON is 400 invalid_json; a non-object or non-string value 422 validation_failed", async () => {
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), custom: "{nope" }, 400, "invalid_json");
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), custom: JSON.stringify({ Department: 7 }) }, 422, "validation_failed");
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), custom: JSON.stringify(["a"]) }, 422, "validation_failed");
  });

  it("422 validation_failed for a bad language tag or a control character", async () => {
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), language: "english please" }, 422, "validation_failed");
    await expectRefused(PATH, { file: file(await pdf(), "a.pdf"), title: "bell\u0007" }, 422, "validation_failed");
  });

  it("encrypted input, with or without an open password: 422 password_protected", async () => {
    await expectRefused(PATH, { file: file(await encryptedPdf(), "a.pdf"), title: "x" }, 422, "password_protected");
    await expectRefused(PATH, { file: file(await encryptedPdf(undefined, { user: "" }), "a.pdf"), title: "x" }, 422, "password_protected");
  });

  it("non-PDF by name or content 415, corrupt PDF 422 unreadable_document", async () => {
    await expectRefused(PATH, { file: file(await pdf(), "a.txt", "text/plain"), title: "x" }, 415, "unsupported_media_type");
    await expectRefused(PATH, { file: file(await makeImage("png", 8, 8, [0, 0, 255]), "a.pdf"), title: "x" }, 415, "unsupported_media_type");
    await expectRefused(PATH, { file: file(corruptPdf(), "a.pdf"), title: "x" }, 422, "unreadable_document");
    await expectRefused(PATH, { title: "x" }, 415, "unsupported_media_type");
  });
});

describe("edit metadata: credits", () => {
  it("charges 10 with a key, refunds failures, 0 anonymously", async () => {
    await expectMetering(
      PATH,
      async () => ({ file: file(await plainPdf(1), "a.pdf"), title: "T" }),
      async () => ({ file: file(await plainPdf(1), "a.pdf"), creation_date: "never" }),
      10,
      "free",
    );
  });
});
