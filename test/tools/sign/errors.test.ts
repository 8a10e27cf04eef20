import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { download, file, pdfFile, postForm, problem, withKey } from "../../support/http";
import { encryptedPdf, makePdf } from "../../support/pdf.mjs";
import { LEGACY_P12, LEGACY_PASSWORD, NOKEY_P12, NOKEY_PASSWORD, RSA_P12, RSA_PASSWORD } from "./fixtures";

// Sign PDF and Verify signatures refusing what they cannot do: each answer a
// problem with a stable code, nothing charged.

const SIGN = "/api/v1/pdf/sign";
const VERIFY = "/api/v1/pdf/signatures";
const p12 = (bytes: Uint8Array, name = "signer.p12") => file(bytes, name, "application/x-pkcs12");

type Fields = Parameters<typeof postForm>[1];

async function refused(path: string, fields: Fields, status: number, code: string) {
  const acc = await accountWithKey({ credits: 500 });
  const res = await postForm(path, fields, withKey(acc.key));
  expect(res.status, await res.clone().text()).toBe(status);
  const body = await problem(res);
  expect(body.code).toBe(code);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  expect(await balanceOf(acc.token)).toBe(500);
  return body;
}

const signFields = async (extra: Fields = {}): Promise<Fields> => ({
  file: pdfFile(await makePdf({ pages: 1 }), "a.pdf"),
  certificate: p12(RSA_P12),
  certificate_password: RSA_PASSWORD,
  ...extra,
});

describe("POST /api/v1/pdf/sign: refusals", () => {
  it("a wrong certificate password: 422 certificate_password_incorrect, nothing charged", async () => {
    const body = await refused(SIGN, await signFields({ certificate_password: "Correct horse" }), 422, "certificate_password_incorrect");
    expect(body.errors?.[0].field).toBe("certificate");
  });

  it("a file that is not a PKCS#12: 422 certificate_invalid", async () => {
    await refused(SIGN, await signFields({ certificate: p12(await makePdf({ pages: 1 }), "not-a-cert.p12") }), 422, "certificate_invalid");
  });

  it("a PKCS#12 without a private key: 422 certificate_invalid", async () => {
    const body = await refused(SIGN, await signFields({ certificate: p12(NOKEY_P12), certificate_password: NOKEY_PASSWORD }), 422, "certificate_invalid");
    expect(body.detail).toMatch(/no private key/);
  });

  it("a legacy 3DES PKCS#12: 422 certificate_unsupported naming the way out", async () => {
    const body = await refused(SIGN, await signFields({ certificate: p12(LEGACY_P12), certificate_password: LEGACY_PASSWORD }), 422, "certificate_unsupported");
    expect(body.detail).toMatch(/openssl pkcs12/);
  });

  it.each([
    [{ certify: "sometimes" }, "certify"],
    [{ rect: "1,2,3" }, "rect"],
    [{ rect: "10,10,2,2" }, "rect"],
    [{ text: "no box" }, "text"],
    [{ page: "0" }, "page"],
    [{ reason: "x".repeat(501) }, "reason"],
  ] as [Fields, string][])("%o: 422 validation_failed on %s", async (extra, field) => {
    const body = await refused(SIGN, await signFields(extra), 422, "validation_failed");
    expect(body.errors?.map((e) => e.field)).toContain(field);
  });

  it("a page past the end: 422 validation_failed", async () => {
    await refused(SIGN, await signFields({ page: "5" }), 422, "validation_failed");
  });

  it("no certificate: 422 validation_failed", async () => {
    const body = await refused(SIGN, await signFields({ certificate: undefined }), 422, "validation_failed");
    expect(body.errors?.map((e) => e.field)).toContain("certificate");
  });

  it("an encrypted PDF: 422 password_protected", async () => {
    await refused(SIGN, await signFields({ file: pdfFile(await encryptedPdf(), "locked.pdf") }), 422, "password_protected");
  });

  it("not a PDF: 415", async () => {
    await refused(SIGN, await signFields({ file: pdfFile(new TextEncoder().encode("hello"), "a.pdf") }), 415, "unsupported_media_type");
  });

  it("certify on a PDF that is signed already: 422 validation_failed", async () => {
    const acc = await accountWithKey({ credits: 500 });
    const first = await postForm(SIGN, await signFields(), withKey(acc.key));
    expect(first.status).toBe(200);
    const url = ((await first.json()) as { file_url: string }).file_url;
    const signed = await download(url);
    await refused(SIGN, await signFields({ file: pdfFile(signed, "signed.pdf"), certify: "no_changes" }), 422, "validation_failed");
  });

  it("a signed PDF whose cross-reference is damaged: 422 unreadable_document (a rewrite would break its signature)", async () => {
    const acc = await accountWithKey({ credits: 500 });
    const first = await postForm(SIGN, await signFields(), withKey(acc.key));
    const signed = await download(((await first.json()) as { file_url: string }).file_url);
    const text = Array.from(signed, (b) => String.fromCharCode(b)).join("");
    const at = text.lastIndexOf("startxref");
    const broken = Uint8Array.from(`${text.slice(0, at)}startxref\n12\n%%EOF\n`, (c) => c.charCodeAt(0));
    await refused(SIGN, await signFields({ file: pdfFile(broken, "broken.pdf") }), 422, "unreadable_document");
  });

  it("anonymous callers: 401 (login tool)", async () => {
    const res = await postForm(SIGN, await signFields());
    expect(res.status).toBe(401);
  });
});

describe("POST /api/v1/pdf/signatures: refusals", () => {
  it("a trust anchor that is not a certificate: 422 validation_failed on trust_anchors", async () => {
    const body = await refused(
      VERIFY,
      { file: pdfFile(await makePdf({ pages: 1 }), "a.pdf"), trust_anchors: [file(new TextEncoder().encode("not a cert"), "ca.pem", "text/plain")] },
      422,
      "validation_failed",
    );
    expect(body.errors?.[0].field).toBe("trust_anchors");
  });

  it("not a PDF: 415; an encrypted PDF: 422 password_protected", async () => {
    await refused(VERIFY, { file: pdfFile(new TextEncoder().encode("hello"), "a.pdf") }, 415, "unsupported_media_type");
    await refused(VERIFY, { file: pdfFile(await encryptedPdf(), "a.pdf") }, 422, "password_protected");
  });
});
