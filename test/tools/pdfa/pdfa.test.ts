import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, corpusManifest, describeWithCorpus, itWithCorpus } from "../../support/corpus";
import { pdfFile, postForm, problem, withKey } from "../../support/http";
import { makePdf } from "../../support/pdf.mjs";
import type { Answer } from "../../support/answers";

const VALIDATE = "/api/v1/pdf/pdfa/validate";

type PdfaBody = Answer<"pdfa-validate">;

async function validate(bytes: Uint8Array, headers: Record<string, string> = {}) {
  const res = await postForm(VALIDATE, { file: pdfFile(bytes, "doc.pdf") }, headers);
  return { res, body: (await res.clone().json()) as PdfaBody };
}

// veraPDF's corpus (shared/corpus/verapdf/MANIFEST.tsv): every pass file must
// be likely_pdfa; a fail file whose clause is structural (the naive probe in
// the manifest fails it: no GTS_PDFA1 intent, no XMP, no pdfaid, Info!=XMP)
// must not be. Fail files beyond a structural check may go either way.
const rows = await corpusManifest("verapdf");
const expectation = (row: Record<string, string>): boolean | null => {
  const probe = row.expected_outcome_or_ground_truth.split("pikepdf): ").pop() ?? "";
  if (row.file.includes("-pass-") || row.file.startsWith("generated/")) return true;
  return probe.startsWith("fail") ? false : null;
};
const decided = rows.filter((r) => expectation(r) !== null);

describeWithCorpus("POST /api/v1/pdf/pdfa/validate over veraPDF's corpus", () => {
  it("has both pass and structural fail files to judge", () => {
    expect(decided.filter((r) => expectation(r)).length).toBeGreaterThanOrEqual(30);
    expect(decided.filter((r) => !expectation(r)).length).toBeGreaterThanOrEqual(15);
  });

  it.each(decided.map((r) => [r.file, expectation(r)] as const))("%s -> likely_pdfa %s", async (file, expected) => {
    const { res, body } = await validate(await corpusFile(`verapdf/${file}`));
    expect(res.status).toBe(200);
    expect(body.likely_pdfa, body.issues.join(" | ")).toBe(expected);
    expect(body.issues.length === 0).toBe(expected);
    const part = Number(/PDFA-(\d)/.exec(file)?.[1] ?? 2);
    if (expected) expect(body.pdfa_part).toBe(part);
  });
});

describe("POST /api/v1/pdf/pdfa/validate", () => {
  itWithCorpus("reports the declared part and conformance from the XMP", async () => {
    const cases: [string, number, string | null][] = [
      ["verapdf/PDFA-1b/6-2-2-t01-pass-a.pdf", 1, "B"],
      ["verapdf/PDFA-2b/6-2-3-t02-pass-a.pdf", 2, "B"],
      ["verapdf/PDFA-4/6-2-3-t01-pass-a.pdf", 4, null],
      ["verapdf/generated/gs_pdfa2b_with_outputintent.pdf", 2, "B"],
    ];
    for (const [file, part, conformance] of cases) {
      const { body } = await validate(await corpusFile(file));
      expect(body).toMatchObject({
        success: true,
        likely_pdfa: true,
        has_output_intent: true,
        has_xmp_metadata: true,
        pdfa_part: part,
        pdfa_conformance: conformance,
      });
      expect(body.note).toMatch(/structural/i);
    }
  });

  itWithCorpus("an ordinary PDF has neither marker; a missing XMP or output intent is reported separately", async () => {
    const plain = await validate(await makePdf({ pages: 1 }));
    expect(plain.body).toMatchObject({ likely_pdfa: false, has_output_intent: false, has_xmp_metadata: false, pdfa_part: null, pdfa_conformance: null });
    const noXmp = await validate(await corpusFile("verapdf/PDFA-2b/6-6-2-1-t01-fail-a.pdf"));
    expect(noXmp.body).toMatchObject({ likely_pdfa: false, has_output_intent: true, has_xmp_metadata: false });
    const pageIntentOnly = await validate(await corpusFile("verapdf/PDFA-4/6-2-3-t05-fail-a.pdf"));
    expect(pageIntentOnly.body).toMatchObject({ likely_pdfa: false, has_output_intent: false, has_xmp_metadata: true, pdfa_part: 4 });
  });

  itWithCorpus("an encrypted file is not PDF/A (reported, not refused)", async () => {
    const { res, body } = await validate(await corpusFile("pdfjs/encrypted/pr6531_2.pdf"));
    expect(res.status).toBe(200);
    expect(body.likely_pdfa).toBe(false);
    expect(body.issues.join(" ")).toMatch(/encrypt/i);
  });

  itWithCorpus("X-Credits-Charged 10 for a key (balance falls by 10), 0 anonymous; no credits_charged in the body", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 25 });
    const pass = await corpusFile("verapdf/PDFA-1b/6-2-2-t01-pass-a.pdf");
    const keyed = await validate(pass, withKey(acct.key));
    expect(keyed.res.headers.get("X-Credits-Charged")).toBe("10");
    expect(keyed.body).not.toHaveProperty("credits_charged");
    expect(await balanceOf(acct.token)).toBe(15);
    const anonymous = await validate(pass);
    expect(anonymous.res.headers.get("X-Credits-Charged")).toBe("0");
  });

  it("500 engine_failed for a corrupt PDF (refunded); 415 for a non-.pdf name or no file", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 25 });
    const corrupt = await validate(new TextEncoder().encode("%PDF-1.7\nnot really"), withKey(acct.key));
    expect(corrupt.res.status).toBe(500);
    expect((await problem(corrupt.res)).code).toBe("engine_failed");
    expect(await balanceOf(acct.token)).toBe(25);
    const wrong = await postForm(VALIDATE, { file: new File([await makePdf({ pages: 1 })], "doc.txt") });
    expect(wrong.status).toBe(415);
    expect((await postForm(VALIDATE, {})).status).toBe(415);
  });
});
