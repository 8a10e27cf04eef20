import { describe, expect, it } from "vitest";
import { EngineError } from "../../errors";
import { asEngineError, withPdf } from "./document";
import { loadMupdf } from "./loader";
import { makePdf } from "../../../../test/support/pdf.mjs";

// Issue #15: what MuPDF cannot read in a document is the caller's 4xx; a
// defect of ours must never be answered as "your PDF is damaged".

describe("MuPDF errors and ours", () => {
  it("a document MuPDF cannot read is an EngineError (corrupt)", async () => {
    const broken = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    await expect(withPdf(broken, () => "opened")).rejects.toMatchObject({ name: "EngineError", kind: "corrupt" });
  });

  it("MuPDF's C errors arrive as MupdfError, and only those become EngineErrors", async () => {
    const mupdf = await loadMupdf();
    let thrown: unknown;
    try {
      mupdf.Document.openDocument(new TextEncoder().encode("not a pdf at all"), "application/pdf");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ name: "MupdfError" });
    expect(asEngineError(thrown)).toBeInstanceOf(EngineError);
    const ours = new Error("MuPDF's PDF writer produced no PDF");
    expect(asEngineError(ours)).toBe(ours);
    expect(asEngineError(new TypeError("x is undefined"))).toBeInstanceOf(TypeError);
  });

  it("our own failure inside a document's work passes through unchanged (a 500, not a 422)", async () => {
    const pdf = await makePdf({ pages: 1 });
    const bug = new Error("an assertion of ours");
    await expect(
      withPdf(pdf, () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
  });
});
