import { describe, expect, it } from "vitest";
import { download, pdfFile, postForm, problem } from "../../support/http";
import { makePdf, withBookmarks } from "../../support/pdf.mjs";
import { readPdf, unzip } from "../../support/pdf-read";

const SPLIT = "/api/v1/pdf/split/split";

async function split(pdf: Uint8Array, mode: string, config: unknown, name = "doc.pdf") {
  const res = await postForm(SPLIT, { file: pdfFile(pdf, name), split_mode: mode, split_config: JSON.stringify(config) });
  const body = (await res.json()) as Record<string, unknown>;
  return { res, body };
}

async function parts(body: Record<string, unknown>) {
  const zip = unzip(await download(body.output_url as string));
  const out: Record<string, Awaited<ReturnType<typeof readPdf>>> = {};
  for (const [name, bytes] of Object.entries(zip)) out[name] = await readPdf(bytes);
  return out;
}

const pageLabels = (facts: Awaited<ReturnType<typeof readPdf>>) => facts.text.map((t) => /page (\d+)/.exec(t)?.[1]);

describe("POST /api/v1/pdf/split/split", () => {
  it("page_range: one PDF per inclusive 1-based range, in a ZIP named <name>_split.zip", async () => {
    const pdf = await makePdf({ pages: 7 });
    const { res, body } = await split(
      pdf,
      "page_range",
      {
        ranges: [
          [1, 2],
          [3, 3],
          [5, 7],
        ],
      },
      "Quarterly Report.pdf",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(body).toMatchObject({ status: "completed", pages: 7, message: "Split into 3 files" });
    expect(body.output_url).toMatch(/Quarterly%20Report_split\.zip$/);
    const files = await parts(body);
    expect(Object.keys(files).sort()).toEqual(["Quarterly Report_pages_1-2.pdf", "Quarterly Report_pages_3-3.pdf", "Quarterly Report_pages_5-7.pdf"]);
    expect(pageLabels(files["Quarterly Report_pages_5-7.pdf"])).toEqual(["5", "6", "7"]);
    expect(body.size).toBe((await download(body.output_url as string)).byteLength);
  });

  it("page_count: one PDF every N pages, the last one shorter", async () => {
    const { body } = await split(await makePdf({ pages: 7 }), "page_count", { pages_per_file: 3 });
    const files = await parts(body);
    expect(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, pageLabels(v)]))).toEqual({
      "doc_part_1.pdf": ["1", "2", "3"],
      "doc_part_2.pdf": ["4", "5", "6"],
      "doc_part_3.pdf": ["7"],
    });
  });

  it("bookmarks: one PDF per top-level bookmark named NN_<title>.pdf with unsafe characters replaced", async () => {
    const pdf = await withBookmarks(await makePdf({ pages: 6 }), [
      { title: "Intro", page: 0 },
      { title: "Q3/Q4: Results?", page: 2 },
      { title: "Annex", page: 5 },
    ]);
    const { res, body } = await split(pdf, "bookmarks", {});
    expect(res.status).toBe(200);
    const files = await parts(body);
    expect(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, pageLabels(v)]))).toEqual({
      "01_Intro.pdf": ["1", "2"],
      "02_Q3_Q4_ Results_.pdf": ["3", "4", "5"],
      "03_Annex.pdf": ["6"],
    });
  });

  it("bookmarks without any top-level bookmark is 400 no_bookmarks", async () => {
    const { res, body } = await split(await makePdf({ pages: 2 }), "bookmarks", {});
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(body.code).toBe("no_bookmarks");
  });

  it("any other mode (AI, content...) gives one PDF per page", async () => {
    for (const mode of ["pages", "ai_chapters", "by_content"]) {
      const { body } = await split(await makePdf({ pages: 3 }), mode, {});
      expect(Object.keys(await parts(body)).sort()).toEqual(["doc_page_1.pdf", "doc_page_2.pdf", "doc_page_3.pdf"]);
    }
  });

  it("keeps links within a part and form fields in their part", async () => {
    const pdf = await makePdf({ pages: 3, link: "https://example.com/kept", field: "signature" });
    const { body } = await split(pdf, "page_range", {
      ranges: [
        [1, 1],
        [2, 3],
      ],
    });
    const files = await parts(body);
    expect(files["doc_pages_1-1.pdf"].links.map((l) => l.uri)).toContain("https://example.com/kept");
    expect(files["doc_pages_1-1.pdf"].fields).toEqual(["signature"]);
    expect(files["doc_pages_2-3.pdf"].fields).toEqual([]);
  });

  it("keeps internal links that stay inside a part and drops those that would point outside it", async () => {
    const pdf = await makePdf({ pages: 4, internalLinks: [1, 3] });
    const { body } = await split(pdf, "page_range", {
      ranges: [
        [1, 2],
        [3, 4],
      ],
    });
    const files = await parts(body);
    // Page 2 is in the first part: its link survives and points at page 2 of the part.
    expect(files["doc_pages_1-2.pdf"].links).toEqual([{ page: 1, view: "Fit" }]);
    // The part with pages 3-4 must not have pulled page 1 or 2 in through links.
    expect(files["doc_pages_3-4.pdf"].pages).toBe(2);
    const zip = unzip(await download(body.output_url as string));
    expect(zip["doc_pages_3-4.pdf"].byteLength).toBeLessThan(zip["doc_pages_1-2.pdf"].byteLength * 2);
  });

  it("more than 200 parts is 400 too_many_parts", async () => {
    const pdf = await makePdf({ pages: 201 });
    const { res, body } = await split(pdf, "pages", {});
    expect(res.status).toBe(400);
    expect(body.code).toBe("too_many_parts");
    const ranges = await split(pdf, "page_count", { pages_per_file: 1 });
    expect(ranges.res.status).toBe(400);
  });

  it("malformed split_config is 400: bad JSON, wrong shape, range outside the document", async () => {
    const pdf = await makePdf({ pages: 3 });
    const bad = await postForm(SPLIT, { file: pdfFile(pdf, "d.pdf"), split_mode: "page_range", split_config: "{oops" });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("invalid_json");
    for (const config of [{ ranges: "1-2" }, { ranges: [[2, 1]] }, { ranges: [[1, 9]] }, { pages_per_file: 0 }]) {
      const mode = "pages_per_file" in config ? "page_count" : "page_range";
      const { res, body } = await split(pdf, mode, config);
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(body.code).toBe("bad_request");
    }
  });

  it("validation: split_mode and split_config are required; non-PDF is 415", async () => {
    const pdf = await makePdf({ pages: 1 });
    const missing = await postForm(SPLIT, { file: pdfFile(pdf, "d.pdf") });
    expect(missing.status).toBe(422);
    expect((await problem(missing)).errors?.map((e) => e.field).sort()).toEqual(["split_config", "split_mode"]);
    const notPdf = await postForm(SPLIT, { file: new File(["hello"], "notes.txt"), split_mode: "pages", split_config: "{}" });
    expect(notPdf.status).toBe(415);
  });
});
