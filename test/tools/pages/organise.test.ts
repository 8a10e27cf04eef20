import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import type { Answer } from "../../support/answers";
import { download, pdfFile, postForm, problem, withKey } from "../../support/http";
import { corruptPdf, encryptedPdf, fixturePdf, makePdf, plainPdf, withBookmarks } from "../../support/pdf.mjs";
import { readPdf } from "../../support/pdf-read";
import { dark, inkOn } from "../../support/mupdf";

const PAGES = "/api/v1/pdf/pages";
type Body = Answer<"organise-pages">;

async function organise(pdf: Uint8Array, fields: Record<string, string>, auth: Record<string, string> = {}) {
  const res = await postForm(PAGES, { file: pdfFile(pdf, "doc.pdf"), ...fields }, auth);
  return { res, body: (await res.clone().json()) as Body };
}

/** The output of a successful call. */
async function organised(pdf: Uint8Array, fields: Record<string, string>) {
  const { res, body } = await organise(pdf, fields);
  expect(res.status, JSON.stringify(body)).toBe(200);
  const bytes = await download(body.file_url);
  return { body, bytes, facts: await readPdf(bytes), doc: await PDFDocument.load(bytes) };
}

/** "Page N" of each output page ("" for a blank page). */
const labels = (texts: string[]) => texts.map((t) => /Page (\d+)/.exec(t)?.[0] ?? "");
const rotations = (doc: PDFDocument) => doc.getPages().map((p) => p.getRotation().angle);
const sizes = (doc: PDFDocument) => doc.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);

describe("POST /api/v1/pdf/pages", () => {
  it("selects, reorders and repeats pages in the order written", async () => {
    const { body, facts } = await organised(await plainPdf(5), { pages: "3,1,4-5,3" });
    expect(labels(facts.text)).toEqual(["Page 3", "Page 1", "Page 4", "Page 5", "Page 3"]);
    expect(body).toMatchObject({ status: "completed", pages: 5, source_pages: 5 });
    expect(body.file_url).toMatch(/doc_organised\.pdf$/);
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.processing_time_ms).toBeGreaterThanOrEqual(0);
  });

  it("odd, even, negative pages, open and backward ranges", async () => {
    const pdf = await plainPdf(5);
    const cases: [string, number[]][] = [
      ["odd", [1, 3, 5]],
      ["even", [2, 4]],
      ["-1", [5]],
      ["-3--1", [3, 4, 5]],
      ["4-", [4, 5]],
      ["-1-1", [5, 4, 3, 2, 1]],
      [" 2 , even ,1 ", [2, 2, 4, 1]],
    ];
    for (const [pages, expected] of cases) {
      const { facts } = await organised(pdf, { pages });
      expect(labels(facts.text), pages).toEqual(expected.map((n) => `Page ${n}`));
    }
  });

  it("delete drops source pages, after the selection", async () => {
    const pdf = await plainPdf(5);
    expect(labels((await organised(pdf, { delete: "2,-1" })).facts.text)).toEqual(["Page 1", "Page 3", "Page 4"]);
    expect(labels((await organised(pdf, { pages: "1,2,1,3", delete: "1" })).facts.text)).toEqual(["Page 2", "Page 3"]);
  });

  it("rotation is added to each page's own /Rotate, numbered after selection", async () => {
    const pdf = await fixturePdf([{ lines: ["Page 1"] }, { lines: ["Page 2"], rotate: 90 }, { lines: ["Page 3"], rotate: 270 }]);
    expect(rotations((await organised(pdf, { rotate: "90" })).doc)).toEqual([90, 180, 0]);
    const { doc, facts } = await organised(pdf, { pages: "3,2,1", rotate: "1:90,2-3:-90,3:180" });
    expect(labels(facts.text)).toEqual(["Page 3", "Page 2", "Page 1"]);
    expect(rotations(doc)).toEqual([0, 0, 90]);
  });

  it("blank pages: sized like the neighbour as displayed, or a named format", async () => {
    const pdf = await fixturePdf([
      { lines: ["Page 1"], size: [595, 842] },
      { lines: ["Page 2"], size: [842, 595] },
      { lines: ["Page 3"], size: [612, 792] },
    ]);
    const { doc, facts, body } = await organised(pdf, { insert_blank: "before:1,after:1,end" });
    expect(labels(facts.text)).toEqual(["", "Page 1", "", "Page 2", "Page 3", ""]);
    expect(sizes(doc)).toEqual([
      [595, 842],
      [595, 842],
      [595, 842],
      [842, 595],
      [612, 792],
      [612, 792],
    ]);
    expect(body).toMatchObject({ pages: 6, source_pages: 3 });
    // A landscape page turned upright: the blank after it is upright too, unrotated.
    const turned = await organised(pdf, { rotate: "2:90", insert_blank: "after:2" });
    expect(sizes(turned.doc)[2]).toEqual([595, 842]);
    expect(rotations(turned.doc)).toEqual([0, 90, 0, 0]);
    const named = await organised(pdf, { insert_blank: "after:odd,start", blank_size: "A5" });
    expect(labels(named.facts.text)).toEqual(["", "Page 1", "", "Page 2", "Page 3", ""]);
    expect(sizes(named.doc).filter((_, i) => named.facts.text[i].trim() === "")).toEqual([
      [420, 595],
      [420, 595],
      [420, 595],
    ]);
  });

  it("crop sets /CropBox from points or per cents, on all pages or the pages named", async () => {
    const pdf = await plainPdf(2);
    const points = await organised(pdf, { crop: "10,20,30,40" });
    for (const page of points.doc.getPages()) {
      expect(page.getCropBox()).toEqual({ x: 10, y: 20, width: 555, height: 782 });
      expect(page.getMediaBox()).toEqual({ x: 0, y: 0, width: 595, height: 842 });
    }
    const percent = await organised(pdf, { crop: "10%,5%,10%,5%", crop_pages: "2" });
    expect(percent.doc.getPage(0).getCropBox()).toEqual({ x: 0, y: 0, width: 595, height: 842 });
    const box = percent.doc.getPage(1).getCropBox();
    expect([box.x, box.y, box.width, box.height].map((v) => Math.round(v * 10) / 10)).toEqual([59.5, 42.1, 476, 757.8]);
    expect(labels(percent.facts.text)).toEqual(["Page 1", "Page 2"]);
  });

  it("crop margins are sides of the page as displayed: on a page turned 90 degrees, left is its bottom", async () => {
    // "Page 1" (x 40-75, 60 pt from the top) is near the unrotated top left
    // corner, which shows at the top right once turned: 40-75 pt from the top.
    const pdf = await fixturePdf([{ lines: ["Page 1"], rotate: 90 }]);
    const left = await organised(pdf, { crop: "300,0,0,0" });
    const kept = await inkOn(left.bytes, 0, dark);
    expect(kept.page.map(Math.round)).toEqual([842 - 300, 595]);
    expect(kept.count).toBeGreaterThan(50);
    expect(kept.box[1]).toBeGreaterThan(35);
    expect(kept.box[3]).toBeLessThan(80);
    const top = await organised(pdf, { crop: "0,0,0,100" });
    const cut = await inkOn(top.bytes, 0, dark);
    expect(cut.page.map(Math.round)).toEqual([842, 495]);
    expect(cut.count).toBe(0);
  });

  it("bookmarks of removed pages go, their kept children move up, kept ones point at the new page", async () => {
    const pdf = await withBookmarks(await plainPdf(5), [
      { title: "One", page: 0 },
      { title: "Two", page: 1 },
      { title: "Four", page: 3 },
      { title: "Five", page: 4 },
    ]);
    const { facts } = await organised(pdf, { pages: "5,3,4,5", delete: "2", insert_blank: "start" });
    expect(labels(facts.text)).toEqual(["", "Page 5", "Page 3", "Page 4", "Page 5"]);
    expect(facts.outline.map((o) => [o.title, o.page])).toEqual([
      ["Four", 3],
      ["Five", 1],
    ]);
  });

  it("links and form fields of kept pages survive; links into removed pages and fields of removed pages go", async () => {
    // Page 1 holds a field, a web link and links to pages 2 and 4.
    const pdf = await makePdf({ pages: 4, field: "name", link: "https://example.com/kept", internalLinks: [1, 3] });
    const kept = await organised(pdf, { pages: "4,1,3" });
    expect(kept.facts.fields).toEqual(["name"]);
    expect(kept.facts.links).toEqual(expect.arrayContaining([{ uri: "https://example.com/kept" }, { page: 0, view: "Fit" }]));
    expect(kept.facts.links).toHaveLength(2);
    const gone = await organised(pdf, { delete: "1" });
    expect(gone.facts.fields).toEqual([]);
    expect(gone.facts.links).toEqual([]);
    // A repeated page keeps its links on every copy; its field stays on the first.
    const twice = await organised(pdf, { pages: "1,1" });
    expect(twice.facts.links.filter((l) => l.uri)).toHaveLength(2);
    expect(twice.facts.fields).toEqual(["name"]);
  });

  itWithCorpus.each(["outline/issue3214.pdf", "outline/labelled_pages.pdf", "outline/outlines_for_editor.pdf"])(
    "real-world outlines (pdf.js %s): reversed, every bookmark kept on its page's new place",
    async (name) => {
      const source = await corpusFile(`pdfjs/${name}`);
      const before = await readPdf(source);
      const { facts } = await organised(source, { pages: "-1-1" });
      expect(facts.pages).toBe(before.pages);
      const moved = (items: typeof before.outline) =>
        items.map((o) => ({ title: o.title, page: o.page === undefined ? undefined : before.pages - 1 - o.page, children: o.children.map((c) => c.title) }));
      const shape = (items: typeof before.outline) => items.map((o) => ({ title: o.title, page: o.page, children: o.children.map((c) => c.title) }));
      expect(shape(facts.outline)).toEqual(moved(before.outline));
      expect(before.outline.length).toBeGreaterThan(0);
    },
  );

  it("charges 10 credits to a key", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const { res } = await organise(await plainPdf(2), { pages: "2,1" }, withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
  });

  it("every bad request is a problem answer, charged nothing", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const pdf = await plainPdf(3);
    const cases: [Record<string, string>, number, string, string][] = [
      [{}, 422, "validation_failed", "pages"],
      [{ pages: " , " }, 422, "validation_failed", "pages"],
      [{ pages: "1,,2" }, 422, "validation_failed", "pages"],
      [{ pages: "0" }, 422, "validation_failed", "pages"],
      [{ pages: "4" }, 422, "validation_failed", "pages"],
      [{ pages: "-4" }, 422, "validation_failed", "pages"],
      [{ pages: "1-x" }, 422, "validation_failed", "pages"],
      [{ delete: "1-3" }, 422, "validation_failed", "delete"],
      [{ delete: "9" }, 422, "validation_failed", "delete"],
      [{ rotate: "45" }, 422, "validation_failed", "rotate"],
      [{ rotate: "1:360" }, 422, "validation_failed", "rotate"],
      [{ rotate: "5:90" }, 422, "validation_failed", "rotate"],
      [{ insert_blank: "middle" }, 422, "validation_failed", "insert_blank"],
      [{ insert_blank: "after:7" }, 422, "validation_failed", "insert_blank"],
      [{ insert_blank: "end", blank_size: "b5" }, 422, "validation_failed", "blank_size"],
      [{ crop: "10,10" }, 422, "validation_failed", "crop"],
      [{ crop: "-5,0,0,0" }, 422, "validation_failed", "crop"],
      [{ crop: "100%" }, 422, "validation_failed", "crop"],
      [{ crop: "300,0,300,0" }, 422, "validation_failed", ""],
      [{ crop: "1", crop_pages: "4" }, 422, "validation_failed", "crop_pages"],
      [{ rotate: "90", blank_size: "a4" }, 422, "validation_failed", "blank_size"],
      [{ rotate: "90", crop_pages: "1" }, 422, "validation_failed", "crop_pages"],
    ];
    for (const [fields, status, code, field] of cases) {
      const { res } = await organise(pdf, fields, withKey(acct.key));
      const label = JSON.stringify(fields);
      expect(res.status, label).toBe(status);
      const p = await problem(res);
      expect(p.code, label).toBe(code);
      if (field)
        expect(
          p.errors?.map((e) => e.field),
          label,
        ).toEqual([field]);
      expect(p.detail, label).not.toBe("");
      expect(res.headers.get("X-Credits-Charged"), label).toBe("0");
    }
    expect(await balanceOf(acct.token)).toBe(50);
  });

  it("an output over 2,000 pages is 422 too_many_pages; a list selecting more is 422 on its field", async () => {
    const pdf = await makePdf({ pages: 1000 });
    const over = await organise(pdf, { pages: "1-,1-", insert_blank: "end" });
    expect(over.res.status).toBe(422);
    expect((await problem(over.res)).code).toBe("too_many_pages");
    expect(over.res.headers.get("X-Credits-Charged")).toBe("0");
    const list = await organise(pdf, { pages: "1-,1-,1" });
    expect(list.res.status).toBe(422);
    expect((await problem(list.res)).errors?.map((e) => e.field)).toEqual(["pages"]);
    const exact = await organise(pdf, { pages: "1-,-1-1" });
    expect(exact.res.status).toBe(200);
    expect(exact.body.pages).toBe(2000);
  });

  it("encrypted, corrupt and non-PDF uploads answer as the other PDF tools do, charged nothing", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const cases: [File, number, string][] = [
      [pdfFile(await encryptedPdf(await plainPdf(2)), "locked.pdf"), 422, "password_protected"],
      [pdfFile(corruptPdf(), "broken.pdf"), 422, "unreadable_document"],
      [pdfFile(new TextEncoder().encode("just text"), "fake.pdf"), 415, "unsupported_media_type"],
      [new File([await plainPdf(1)], "notes.txt"), 415, "unsupported_media_type"],
    ];
    for (const [file, status, code] of cases) {
      const res = await postForm(PAGES, { file, rotate: "90" }, withKey(acct.key));
      expect(res.status, file.name).toBe(status);
      expect((await problem(res)).code, file.name).toBe(code);
      expect(res.headers.get("X-Credits-Charged"), file.name).toBe("0");
    }
    const missing = await postForm(PAGES, { rotate: "90" }, withKey(acct.key));
    expect(missing.status).toBe(415);
    expect(await balanceOf(acct.token)).toBe(50);
  });
});
