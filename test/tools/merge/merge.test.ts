import { describe, expect, it } from "vitest";
import { download, pdfFile, postForm, problem } from "../../support/http";
import { encryptedPdf, makePdf, withBookmarks } from "../../support/pdf.mjs";
import { readPdf } from "../../support/pdf-read";

const MERGE = "/api/v1/pdf/merge/merge";

async function merge(files: File[], extra: Record<string, string> = {}) {
  const res = await postForm(MERGE, { files, ...extra });
  const body = (await res.json()) as Record<string, unknown>;
  return { res, body };
}

describe("POST /api/v1/pdf/merge/merge", () => {
  it("merges in order with every response field", async () => {
    const a = await makePdf({ pages: 2, label: "Alpha" });
    const b = await makePdf({ pages: 1, label: "Beta" });
    const c = await makePdf({ pages: 3, label: "Gamma" });
    const { res, body } = await merge([pdfFile(a, "alpha.pdf"), pdfFile(b, "beta.PDF"), pdfFile(c, "gamma.pdf")], { options: "{}" });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: "completed", pages: 6, compression_ratio: null, message: "Merged successfully" });
    expect(body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof body.processing_time).toBe("number");
    const out = await download(body.output_url as string);
    expect(body.size).toBe(out.byteLength);
    const facts = await readPdf(out);
    expect(facts.pages).toBe(6);
    const order = facts.text.map((t) => /(\w+) page (\d)/.exec(t)?.slice(1).join(" "));
    expect(order).toEqual(["Alpha 1", "Alpha 2", "Beta 1", "Gamma 1", "Gamma 2", "Gamma 3"]);
  });

  it("adds one top-level bookmark per source named from its filename, with the source's bookmarks nested", async () => {
    const a = await withBookmarks(await makePdf({ pages: 3, label: "A" }), [
      { title: "Intro", page: 0 },
      { title: "Results", page: 2 },
    ]);
    const b = await makePdf({ pages: 2, label: "B" });
    const { body } = await merge([pdfFile(a, "report 2024.pdf"), pdfFile(b, "appendix.pdf")]);
    const facts = await readPdf(await download(body.output_url as string));
    expect(facts.outline.map((o) => [o.title, o.page])).toEqual([
      ["report 2024", 0],
      ["appendix", 3],
    ]);
    expect(facts.outline[0].children.map((c) => [c.title, c.page])).toEqual([
      ["Intro", 0],
      ["Results", 2],
    ]);
  });

  it("keeps form fields working and renames clashing names; keeps links and the first file's metadata", async () => {
    const a = await makePdf({ pages: 1, label: "A", field: "name", link: "https://example.com/a" });
    const b = await makePdf({ pages: 1, label: "B", field: "name" });
    const c = await makePdf({ pages: 1, label: "C", field: "email" });
    const { body } = await merge([pdfFile(a, "a.pdf"), pdfFile(b, "b.pdf"), pdfFile(c, "c.pdf")]);
    const facts = await readPdf(await download(body.output_url as string));
    expect(facts.fields).toEqual(["name", "name_2", "email"]);
    expect(facts.links.map((l) => l.uri)).toContain("https://example.com/a");
    expect(facts.title).toBe("A title");
  });

  it("output is compressed: merging is not larger than the inputs together", async () => {
    const a = await makePdf({ pages: 20, label: "A" });
    const b = await makePdf({ pages: 20, label: "B" });
    const { body } = await merge([pdfFile(a, "a.pdf"), pdfFile(b, "b.pdf")]);
    expect(body.size as number).toBeLessThan(a.byteLength + b.byteLength);
  });

  it("400 too_few_files for one file or none", async () => {
    const a = await makePdf({ pages: 1 });
    const one = await postForm(MERGE, { files: [pdfFile(a, "a.pdf")] });
    expect(one.status).toBe(400);
    expect((await problem(one)).code).toBe("too_few_files");
    const none = await postForm(MERGE, { options: "{}" });
    expect(none.status).toBe(400);
  });

  it("400 for a non-.pdf part and for malformed options JSON", async () => {
    const a = await makePdf({ pages: 1 });
    const wrong = await postForm(MERGE, { files: [pdfFile(a, "a.pdf"), new File([a], "b.txt")] });
    expect(wrong.status).toBe(400);
    const p = await problem(wrong);
    expect(p.code).toBe("bad_request");
    expect(p.errors?.[0].field).toBe("files.1");
    const badJson = await postForm(MERGE, { files: [pdfFile(a, "a.pdf"), pdfFile(a, "b.pdf")], options: "{not json" });
    expect(badJson.status).toBe(400);
    expect((await problem(badJson)).code).toBe("invalid_json");
  });

  it("an encrypted source is 422 password_protected, a corrupt one 422 unreadable_document", async () => {
    const a = await makePdf({ pages: 1 });
    const encrypted = await encryptedPdf(await makePdf({ pages: 1 }));
    const enc = await postForm(MERGE, { files: [pdfFile(a, "a.pdf"), pdfFile(encrypted, "secret.pdf")] });
    expect(enc.status).toBe(422);
    const p = await problem(enc);
    expect(p.code).toBe("password_protected");
    expect(p.detail).toContain("secret.pdf");
    const junk = await postForm(MERGE, { files: [pdfFile(a, "a.pdf"), pdfFile(new Uint8Array([1, 2, 3, 4]), "junk.pdf")] });
    expect(junk.status).toBe(422);
    expect((await problem(junk)).code).toBe("unreadable_document");
  });

  it("accepts and ignores async_processing (always synchronous)", async () => {
    const a = await makePdf({ pages: 1 });
    const { res, body } = await merge([pdfFile(a, "a.pdf"), pdfFile(a, "b.pdf")], { async_processing: "true" });
    expect(res.status).toBe(200);
    expect(body.status).toBe("completed");
  });
});
