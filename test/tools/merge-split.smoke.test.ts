import { describe, expect, it } from "vitest";
import { download, pdfFile, postForm } from "../support/http";
import { makePdf, readPdf } from "../support/pdf";

describe("smoke", () => {
  it("merges two PDFs anonymously", async () => {
    const a = await makePdf({ pages: 2, label: "Alpha" });
    const b = await makePdf({ pages: 3, label: "Beta" });
    const res = await postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(a, "alpha.pdf"), pdfFile(b, "beta.pdf")] });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const facts = await readPdf(await download(body.output_url as string));
    expect(facts.pages).toBe(5);
    expect(facts.outline.map((o) => o.title)).toEqual(["alpha", "beta"]);
  });
});
