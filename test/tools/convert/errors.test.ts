import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, problem, withKey } from "../../support/http";
import { corruptPdf, encryptedPdf, makePdf } from "../../support/pdf.mjs";
import { CONVERT, convert } from "./support";

// Convert document's refusals and billing: status, code, X-Credits-Charged
// and the balance, through the Worker.

const credits = (res: Response) => res.headers.get("X-Credits-Charged");

describe("Convert document: errors and billing", () => {
  it("400 bad_request for a missing file and for an empty one, nothing charged", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const missing = await postForm(CONVERT, { target_format: "docx" }, withKey(acct.key));
    expect(missing.status).toBe(400);
    expect((await problem(missing)).code).toBe("bad_request");
    const empty = await postForm(CONVERT, { file: file(new Uint8Array(0), "empty.pdf"), target_format: "docx" }, withKey(acct.key));
    expect(empty.status).toBe(400);
    expect((await problem(empty)).code).toBe("bad_request");
    expect(credits(empty)).toBe("0");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("422 unsupported_conversion for an unknown pair or source, naming the supported pairs, before any charge", async () => {
    const acct = await accountWithKey({ credits: 100 });
    for (const [name, target] of [
      ["doc.pdf", "xlsx"],
      ["notes.txt", "docx"],
      ["sheet.xlsx", "pdf"],
      ["noextension", "pdf"],
    ]) {
      const { res } = await convert(new TextEncoder().encode("x"), name, target, {}, withKey(acct.key));
      expect(res.status, `${name} → ${target}`).toBe(422);
      const body = await problem(res);
      expect(body.code).toBe("unsupported_conversion");
      expect(body.errors?.[0]?.field).toBe("target_format");
      expect(body.errors?.[0]?.message).toContain("pdf → docx");
      expect(body.errors?.[0]?.message).toContain("docx → pdf");
      expect(credits(res)).toBe("0");
    }
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("422 validation_failed for an engine other than auto or vision, and for an unknown quality_preset", async () => {
    const pdf = await makePdf({ pages: 1 });
    for (const extra of [{ engine: "gpu" }, { quality_preset: "ultra" }] as Record<string, string>[]) {
      const { res } = await convert(pdf, "doc.pdf", "docx", extra);
      expect(res.status).toBe(422);
      expect((await problem(res)).code).toBe("validation_failed");
    }
  });

  it("a corrupt PDF is 422 unreadable_document and an encrypted one 422 password_protected, both refunded", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const corrupt = await convert(corruptPdf(), "broken.pdf", "docx", {}, withKey(acct.key));
    expect(corrupt.res.status).toBe(422);
    expect((await problem(corrupt.res)).code).toBe("unreadable_document");
    const locked = await convert(await encryptedPdf(await makePdf({ pages: 1 })), "locked.pdf", "png", {}, withKey(acct.key));
    expect(locked.res.status).toBe(422);
    expect((await problem(locked.res)).code).toBe("password_protected");
    expect(credits(locked.res)).toBe("0");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("a file that is not the image its name says is 422, refunded", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const { res } = await convert(new TextEncoder().encode("not a picture"), "photo.png", "pdf", {}, withKey(acct.key));
    expect(res.status).toBe(422);
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("a DOCX whose text part would expand past 16 MB is refused before mammoth inflates it (422, refunded)", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const bomb = zipSync({ "[Content_Types].xml": new Uint8Array(10), "word/document.xml": new Uint8Array(17 * 1024 * 1024) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(200_000);
    for (const target of ["txt", "md", "pdf"]) {
      const { res } = await convert(bomb, "bomb.docx", target, {}, withKey(acct.key));
      expect(res.status, target).toBe(422);
      expect((await problem(res)).detail).toMatch(/expands to/);
    }
    const notZip = await convert(new TextEncoder().encode("plain text, not a package"), "fake.docx", "txt", {}, withKey(acct.key));
    expect(notZip.res.status).toBe(422);
    expect((await problem(notZip.res)).code).toBe("unreadable_document");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("engine=vision for PDF → DOCX without a vision model: 422 ai_not_configured, the 200 credits refunded", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    const { res } = await convert(await makePdf({ pages: 1 }), "doc.pdf", "docx", { engine: "vision" }, withKey(acct.key));
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("ai_not_configured");
    expect(credits(res)).toBe("0");
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("engine=vision needs a paid plan (403) and is ignored for other pairs (40 credits, mupdf-text)", async () => {
    const free = await accountWithKey({ plan: "free", credits: 500 });
    const pdf = await makePdf({ pages: 1 });
    const denied = await convert(pdf, "doc.pdf", "docx", { engine: "vision" }, withKey(free.key));
    expect(denied.res.status).toBe(403);
    const other = await convert(pdf, "doc.pdf", "txt", { engine: "vision" }, withKey(free.key));
    expect(other.res.status).toBe(200);
    expect(other.body.engine_used).toBe("mupdf-text");
    expect(credits(other.res)).toBe("40");
    expect(await balanceOf(free.token)).toBe(460);
  });

  it("anonymous callers convert for free (free-try, 0 credits)", async () => {
    const { res, body } = await convert(await makePdf({ pages: 1, label: "Anon" }), "anon.pdf", "txt");
    expect(res.status).toBe(200);
    expect(credits(res)).toBe("0");
    expect(body.engine_used).toBe("mupdf-text");
  });
});
