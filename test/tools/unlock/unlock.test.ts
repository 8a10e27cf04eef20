import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { download, pdfFile, postForm, problem, withKey } from "../../support/http";
import { encryptedPdf, makePdf } from "../../support/pdf.mjs";
import { isEncrypted } from "../../support/pdf-read";
import { mupdfTexts } from "../../support/mupdf";
import type { Answer } from "../../support/answers";

const UNLOCK = "/api/v1/security/security/password/remove";
// Anonymous unlock must come from a browser (docs/reference/pdf-toolkit.md, Unlock PDF).
const BROWSER = { Origin: "https://app.example.test" };

// Passwords and page counts from the corpus manifests (qpdf, pdf.js, docling, tabula, camelot).
const CASES = [
  { file: "qpdf/encrypted/enc-R2_V1_U-view_O-master.pdf", password: "view", method: "RC4", bits: "40", pages: 30 },
  { file: "qpdf/encrypted/enc-R2_V1_U-view_O-master.pdf", password: "master", method: "RC4", bits: "40", pages: 30 },
  { file: "qpdf/encrypted/enc-R3_V2_U-view_O-master.pdf", password: "view", method: "RC4", bits: "128", pages: 30 },
  { file: "tables/tabula/encrypted.pdf", password: "userpassword", method: "RC4", bits: "128", pages: 1 },
  { file: "tables/camelot/health_protected.pdf", password: "ownerpass", method: "RC4", bits: "128", pages: 1 },
  { file: "qpdf/encrypted/enc-long-password.pdf", password: "asdf asdf asdf asdf asdf asdf qwer", method: "RC4", bits: "128", pages: 30 },
  { file: "markdown/docling/2206.01062_pg3_password.pdf", password: "1234", method: "AES", bits: "128", pages: 1 },
  { file: "markdown/docling/2206.01062_pg3_password.pdf", password: "owner", method: "AES", bits: "128", pages: 1 },
  { file: "qpdf/encrypted/enc-XI-R6_V5_O-master.pdf", password: "master", method: "AES", bits: "256", pages: 30 },
  { file: "qpdf/encrypted/enc-XI-R6_V5_U-wwwww_O-wwwww.pdf", password: "wwwww", method: "AES", bits: "256", pages: 30 },
  { file: "pdfjs/encrypted/pr6531_1.pdf", password: "asdfasdf", method: "AES", bits: "256", pages: 1 },
  { file: "pdfjs/encrypted/pr6531_2.pdf", password: "asdfasdf", method: "AES", bits: "256", pages: 1 },
  { file: "pdfjs/encrypted/encrypted-attachment.pdf", password: "000000", method: "None", bits: "256", pages: 1 },
  { file: "pdfjs/encrypted/issue3371.pdf", password: "ELXRTQWS", method: "AES", bits: "128", pages: 1 },
  { file: "pdfjs/encrypted/issue6010_1.pdf", password: "abc", method: "AES", bits: "256", pages: 1 },
  // Encrypted and with a damaged xref: peers disagree on it (pdfjs MANIFEST).
  { file: "pdfjs/encrypted/issue15893_reduced.pdf", password: "test", method: "RC4", bits: "128", pages: 1 },
];

type UnlockBody = Answer<"unlock-pdf">;

async function unlock(bytes: Uint8Array, password: string | undefined, headers: Record<string, string> = BROWSER, name = "locked.pdf") {
  const res = await postForm(UNLOCK, { file: pdfFile(bytes, name), password }, headers);
  return { res, body: (await res.clone().json()) as UnlockBody };
}

describe("POST /api/v1/security/security/password/remove", () => {
  itWithCorpus.each(CASES)("unlocks $file with '$password' ($method $bits)", async ({ file, password, method, bits, pages }) => {
    const locked = await corpusFile(file);
    const { res, body } = await unlock(locked, password);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: "completed", operation_type: "remove_password", success: true, was_encrypted: true, pages });
    expect(body.encryption).toMatch(new RegExp(`^Standard V\\d R\\d ${bits}-bit ${method}$`));
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const out = await download(body.file_url);
    expect(await isEncrypted(out)).toBe(false);
    // pdf-lib refuses encrypted files unless told to ignore it: it loads this one plainly.
    expect((await PDFDocument.load(out)).getPageCount()).toBe(pages);
    const [before, after] = [await mupdfTexts(locked, password), await mupdfTexts(out)];
    expect(after).toEqual(before);
  });

  itWithCorpus("charges 10 credits to a key; the balance falls by exactly that", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const { res } = await unlock(await corpusFile("tables/tabula/encrypted.pdf"), "userpassword", withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
  });

  itWithCorpus("400 wrong_password (refunded), also for files that open without a password", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    for (const [file, password] of [
      ["pdfjs/encrypted/pr6531_1.pdf", "qwerty"],
      ["qpdf/encrypted/enc-R3_V2_U-view_O-master.pdf", "View"],
      ["qpdf/encrypted/V4-aes.pdf", "not-the-owner"],
    ]) {
      const { res } = await unlock(await corpusFile(file), password, withKey(acct.key));
      expect(res.status, file).toBe(400);
      expect((await problem(res)).code).toBe("wrong_password");
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
    }
    expect(await balanceOf(acct.token)).toBe(50);
  });

  it("AES-256 (R6) passwords are prepared with SASLprep: no-break spaces, soft hyphens and decomposed accents still match", async () => {
    // Passwords set in their prepared form, as a PDF 2.0 producer stores them; typed the way people (and their keyboards) type them.
    const cases = [
      { set: "pass word", typed: "pass\u00A0word" },
      { set: "password", typed: "pass\u00ADword" },
      { set: "Ålesund", typed: "A\u030Alesund" },
      { set: "password", typed: "ｐａｓｓｗｏｒｄ" },
    ];
    for (const { set, typed } of cases) {
      const locked = await encryptedPdf(await makePdf({ pages: 2, label: "Prepared" }), { user: set, owner: `${set}-owner` });
      const { res, body } = await unlock(locked, typed);
      expect(res.status, JSON.stringify(typed)).toBe(200);
      expect(body).toMatchObject({ was_encrypted: true, encryption: expect.stringContaining("R6"), pages: 2 });
      expect(await isEncrypted(await download(body.file_url))).toBe(false);
    }
    // Preparation does not make every password match.
    const locked = await encryptedPdf(await makePdf({ pages: 1 }), { user: "password", owner: "owner" });
    const { res } = await unlock(locked, "pass-word");
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("wrong_password");
  });

  it("a file that is not encrypted succeeds and comes back byte for byte", async () => {
    const plain = await makePdf({ pages: 2 });
    const { res, body } = await unlock(plain, "anything");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, was_encrypted: false, encryption: null, pages: 2 });
    expect(await download(body.file_url)).toEqual(plain);
  });

  itWithCorpus("422 when the password is missing", async () => {
    const { res } = await unlock(await corpusFile("tables/tabula/encrypted.pdf"), undefined);
    expect(res.status).toBe(422);
    const p = await problem(res);
    expect(p.code).toBe("validation_failed");
    expect(p.errors?.[0].field).toBe("password");
  });

  it("400 for a non-.pdf name, an empty file, no file, and a corrupt PDF", async () => {
    const pdf = await makePdf({ pages: 1 });
    const cases = [
      await postForm(UNLOCK, { file: new File([pdf], "doc.txt"), password: "x" }, BROWSER),
      await postForm(UNLOCK, { file: pdfFile(new Uint8Array(0), "empty.pdf"), password: "x" }, BROWSER),
      await postForm(UNLOCK, { password: "x" }, BROWSER),
      await postForm(UNLOCK, { file: pdfFile(new TextEncoder().encode("%PDF-1.4 garbage"), "bad.pdf"), password: "x" }, BROWSER),
    ];
    const codes = [];
    for (const res of cases) {
      expect(res.status).toBe(400);
      codes.push((await problem(res)).code);
    }
    expect(codes).toEqual(["bad_request", "bad_request", "bad_request", "corrupt_pdf"]);
  });

  itWithCorpus("401 anonymously without a browser Origin; with one it is free", async () => {
    const locked = await corpusFile("tables/tabula/encrypted.pdf");
    const server = await unlock(locked, "userpassword", {});
    expect(server.res.status).toBe(401);
    expect((await problem(server.res)).code).toBe("unauthorized");
    const browser = await unlock(locked, "userpassword", BROWSER);
    expect(browser.res.status).toBe(200);
    expect(browser.res.headers.get("X-Credits-Charged")).toBe("0");
  });
});
