import { describe, expect, it } from "vitest";
import { accountWithKey } from "../../support/accounts";
import type { Answer } from "../../support/answers";
import { download, file, pdfFile, postForm, withKey } from "../../support/http";
import { bluish, dark, inkOn, mupdfTexts, withMupdf } from "../../support/mupdf";
import { classicPdf, makePdf } from "../../support/pdf.mjs";
import { CA_PEM, EC_P12, EC_PASSWORD, EC_PEM, EXPIRED_P12, EXPIRED_PASSWORD, RSA_P12, RSA_PASSWORD } from "./fixtures";

// Sign PDF checked through our own Verify signatures (and MuPDF as an
// independent reader of the widget): what a signer's counterpart would see.
// pdfsig, the native oracle, reads the same outputs in test/e2e/pdf-sign.test.mjs.

const SIGN = "/api/v1/pdf/sign";
const VERIFY = "/api/v1/pdf/signatures";

type SignBody = Answer<"sign-pdf">;
type VerifyBody = Answer<"verify-signatures">;
type Fields = Parameters<typeof postForm>[1];

const p12 = (bytes: Uint8Array) => file(bytes, "signer.p12", "application/x-pkcs12");

async function sign(key: string, pdf: Uint8Array, fields: Fields = {}, cert = { p12: RSA_P12, password: RSA_PASSWORD }) {
  const res = await postForm(
    SIGN,
    { file: pdfFile(pdf, "contract.pdf"), certificate: p12(cert.p12), certificate_password: cert.password, ...fields },
    withKey(key),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as SignBody;
  return { res, body, out: await download(body.file_url) };
}

async function verify(key: string, pdf: Uint8Array, anchors?: File[]) {
  const res = await postForm(VERIFY, { file: pdfFile(pdf, "signed.pdf"), trust_anchors: anchors }, withKey(key));
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as VerifyBody;
}

const sound = { byte_range_covers_revision: true, digest_matches: true, signature_valid: true, has_signing_certificate_v2: true };

describe("POST /api/v1/pdf/sign: the output verifies", () => {
  it.each([
    ["xref stream input (pdf-lib's default)", () => makePdf({ pages: 2, label: "Contract" })],
    ["classic xref table input", () => classicPdf(2, "Contract")],
  ])("RSA-2048, %s: an incremental update over the original bytes, PAdES B-B, verified sound and unmodified", async (_name, make) => {
    const { key } = await accountWithKey();
    const original = await make();
    const { res, body, out } = await sign(key, original, { reason: "Approved", location: "Berlin" });
    expect(res.headers.get("X-Credits-Charged")).toBe("20");
    expect(body).toMatchObject({
      status: "completed",
      field_name: "Signature1",
      pades_level: "B-B",
      sub_filter: "ETSI.CAdES.detached",
      visible: false,
      certification: "none",
      warnings: [],
      rewritten: false,
      pages: 2,
      signer: { subject: { cn: "Alice RSA Signer", o: "Docapi Test" } },
    });
    expect(body.file_url).toMatch(/contract_signed\.pdf$/);
    // Incremental: the original file is a prefix of the signed one.
    expect(out.subarray(0, original.length)).toEqual(original);
    expect(body.byte_range[2] + body.byte_range[3]).toBe(out.length);
    expect(await mupdfTexts(out)).toEqual(await mupdfTexts(original));

    const report = await verify(key, out);
    expect(report.signature_count).toBe(1);
    expect(report.signatures[0]).toMatchObject({
      ...sound,
      field: "Signature1",
      sub_filter: "ETSI.CAdES.detached",
      filter: "Adobe.PPKLite",
      digest_algorithm: "SHA-256",
      signature_algorithm: "RSA PKCS#1 v1.5 with SHA-256",
      modified_after_signing: false,
      revisions_after: 0,
      reason: "Approved",
      location: "Berlin",
      cms_signing_time: null,
      chain: "not_checked",
      problems: [],
      signer: { subject: { cn: "Alice RSA Signer", o: "Docapi Test", dn: "CN=Alice RSA Signer, O=Docapi Test, C=DE" } },
    });
    expect(report.signatures[0].signing_time).toBe(body.signed_at);
  });

  it("ECDSA P-256: signs and verifies", async () => {
    const { key } = await accountWithKey();
    const { body, out } = await sign(key, await makePdf({ pages: 1 }), {}, { p12: EC_P12, password: EC_PASSWORD });
    expect(body.signature_algorithm).toBe("ECDSA with SHA-256");
    const [sig] = (await verify(key, out)).signatures;
    expect(sig).toMatchObject({
      ...sound,
      modified_after_signing: false,
      signature_algorithm: "ECDSA with SHA-256",
      signer: { subject: { cn: "Bob ECDSA Signer" } },
    });
  });

  it("signing twice: both signatures verify, the first reports the later revision", async () => {
    const { key } = await accountWithKey();
    const once = (await sign(key, await makePdf({ pages: 1 }))).out;
    const twice = (await sign(key, once, {}, { p12: EC_P12, password: EC_PASSWORD })).out;
    expect(twice.subarray(0, once.length)).toEqual(once);
    const report = await verify(key, twice);
    expect(report.signatures.map((s) => s.field)).toEqual(["Signature1", "Signature2"]);
    expect(report.signatures[0]).toMatchObject({ ...sound, modified_after_signing: true, revisions_after: 1 });
    expect(report.signatures[1]).toMatchObject({ ...sound, modified_after_signing: false, revisions_after: 0 });
  });

  it("one byte changed inside the signed range: digest_matches false, the signature over the attributes still verifies", async () => {
    const { key } = await accountWithKey();
    // Classic xref: the Info dictionary is plain text to change.
    const { out } = await sign(key, await classicPdf(1, "Tamper"));
    const text = new TextDecoder("latin1").decode(out);
    const at = text.indexOf("/Title");
    expect(at).toBeGreaterThan(0);
    const tampered = out.slice();
    tampered[at + 2] ^= 0x20;
    const [sig] = (await verify(key, tampered)).signatures;
    expect(sig).toMatchObject({ digest_matches: false, signature_valid: true, byte_range_covers_revision: true });
  });

  it("a visible box: the widget has a rectangle and an appearance, which renders where asked (frame and text)", async () => {
    const { key } = await accountWithKey();
    const { body, out } = await sign(key, await makePdf({ pages: 2 }), { page: "2", rect: "36,36,220,60", text: "Signed by Alice\nfor the board" });
    expect(body).toMatchObject({ visible: true, page: 2 });
    const widget = await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(out, "application/pdf").asPDF();
      if (!doc) throw new Error("not a PDF");
      try {
        const annots = doc.findPage(1).get("Annots");
        const w = annots.get(annots.length - 1).resolve();
        return { rect: w.get("Rect").asJS() as number[], hasAp: w.get("AP").get("N").isStream(), ft: w.get("FT").asName() };
      } finally {
        doc.destroy();
      }
    });
    expect(widget).toEqual({ rect: [36, 36, 256, 96], hasAp: true, ft: "Sig" });
    // Rendered by MuPDF (top-left origin): the frame is the box, 842 - 96 = 746 to 806 from the top; the text is dark ink inside it.
    const frame = await inkOn(out, 1, bluish, 288);
    expect(frame.count).toBeGreaterThan(100);
    frame.box.forEach((v, i) => expect(Math.abs(v - [36, 746, 256, 806][i])).toBeLessThan(2));
    const textInk = await inkOn(out, 1, dark, 144);
    expect(textInk.box[1]).toBeLessThan(746 + 30);
    expect(textInk.box[0]).toBeGreaterThan(36);
    expect((await inkOn(out, 0, bluish)).count).toBe(0);
    expect((await verify(key, out)).signatures[0]).toMatchObject(sound);
  });

  it("certify=form_filling: DocMDP P=2 in the signature and the catalog's /Perms", async () => {
    const { key } = await accountWithKey();
    const { body, out } = await sign(key, await makePdf({ pages: 1 }), { certify: "form_filling" });
    expect(body.certification).toBe("form_filling");
    const [sig] = (await verify(key, out)).signatures;
    expect(sig).toMatchObject({ ...sound, certification: 2 });
    const perms = await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(out, "application/pdf").asPDF();
      if (!doc) throw new Error("not a PDF");
      try {
        return doc.getTrailer().get("Root").get("Perms").get("DocMDP").isIndirect();
      } finally {
        doc.destroy();
      }
    });
    expect(perms).toBe(true);
  });

  it("a damaged cross-reference (startxref pointing nowhere): rewritten by MuPDF first, then signed soundly", async () => {
    const { key } = await accountWithKey();
    const text = new TextDecoder("latin1").decode(await classicPdf(1, "Damaged"));
    const broken = Uint8Array.from(text.replace(/startxref\s+\d+/, "startxref\n12"), (c) => c.charCodeAt(0));
    const { body, out } = await sign(key, broken);
    expect(body.rewritten).toBe(true);
    expect((await verify(key, out)).signatures[0]).toMatchObject({ ...sound, modified_after_signing: false });
  });

  it("NUL padding after %%EOF: appended to as it is (no rewrite), the earlier signature stays sound", async () => {
    const { key } = await accountWithKey();
    const once = (await sign(key, await makePdf({ pages: 1 }))).out;
    const padded = new Uint8Array(once.length + 64);
    padded.set(once);
    const { body, out } = await sign(key, padded, {}, { p12: EC_P12, password: EC_PASSWORD });
    expect(body.rewritten).toBe(false);
    const report = await verify(key, out);
    expect(report.signatures.map((s) => s.digest_matches && s.signature_valid)).toEqual([true, true]);
  });

  it("an expired certificate signs, with a warning", async () => {
    const { key } = await accountWithKey();
    const { body, out } = await sign(key, await makePdf({ pages: 1 }), {}, { p12: EXPIRED_P12, password: EXPIRED_PASSWORD });
    expect(body.warnings.map((w) => w.code)).toEqual(["certificate_expired"]);
    expect((await verify(key, out)).signatures[0]).toMatchObject(sound);
  });
});

describe("POST /api/v1/pdf/signatures", () => {
  it("a PDF without signatures: 200 and an empty list", async () => {
    const { key } = await accountWithKey();
    const report = await verify(key, await makePdf({ pages: 3, field: "name" }));
    expect(report).toMatchObject({ pages: 3, signature_count: 0, signatures: [] });
  });

  it("trust_anchors: trusted through the CA the chain names, untrusted against another anchor", async () => {
    const { key } = await accountWithKey();
    const { out } = await sign(key, await makePdf({ pages: 1 }));
    const pem = (s: string, name: string) => file(new TextEncoder().encode(s), name, "application/x-pem-file");
    expect((await verify(key, out, [pem(CA_PEM, "ca.pem")])).signatures[0].chain).toBe("trusted");
    expect((await verify(key, out, [pem(EC_PEM, "other.pem")])).signatures[0].chain).toBe("untrusted");
  });
});
