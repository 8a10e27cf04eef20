import { describe, expect, it } from "vitest";
import { accountWithKey } from "../../support/accounts";
import { download, file, postForm, withKey } from "../../support/http";
import { fixturePdf } from "../../support/pdf.mjs";
import { pageTexts, squash } from "../../support/pdf-text";

// Issue #32: an IBAN is redacted only when its ISO 13616 mod-97 check holds.
// A mistyped one (one digit changed) stays, whatever its digit groups look
// like: "1234 5698 7654 30" passes Luhn and used to go as a CREDIT_CARD.
// The output is read with the suite's own pdf-lib text reader, not MuPDF.

const PATH = "/api/v1/redact";

const VALID = ["GB82 WEST 1234 5698 7654 32", "GB82WEST12345698765432", "DE89 3704 0044 0532 0130 00", "DE89370400440532013000"];
const MISTYPED = [
  "GB82 WEST 1234 5698 7654 30",
  "GB82WEST12345698765430",
  "GB82 WEST 1234 5698 7654 33",
  "GB82WEST12345698765433",
  "DE89 3704 0044 0532 0130 01",
  "DE89370400440532013001",
];

describe("redact: IBAN check digits (ISO 13616 mod-97)", () => {
  it("removes valid IBANs, spaced and unspaced, and leaves the mistyped ones, under every entity type", async () => {
    const { key } = await accountWithKey({ credits: 1_000 });
    const lines = [...VALID.map((v) => `Valid ${v} end`), ...MISTYPED.map((v) => `Mistyped ${v} end`)];
    const pdf = await fixturePdf([{ lines }]);
    for (const fields of [{}, { entity_types: "IBAN" }, { entity_types: "credit_card,iban,phone,aadhaar" }]) {
      const res = await postForm(PATH, { file: file(pdf, "iban.pdf"), ...fields }, withKey(key));
      const body = (await res.json()) as {
        url: string;
        redactions_made: number;
        entities: Record<string, number>;
        text_fully_removed: boolean;
        credits_charged: number;
      };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ redactions_made: VALID.length, entities: { IBAN: VALID.length }, text_fully_removed: true, credits_charged: 40 });
      const [text] = await pageTexts(await download(body.url));
      for (const v of VALID) expect(squash(text), v).not.toContain(squash(v));
      for (const v of MISTYPED) expect(text, v).toContain(`Mistyped ${v} end`);
      expect(text.match(/Valid/g)).toHaveLength(VALID.length);
    }
  });

  it("CREDIT_CARD alone finds nothing in a mistyped IBAN: a document of mistyped IBANs comes back untouched", async () => {
    const { key } = await accountWithKey({ credits: 1_000 });
    const pdf = await fixturePdf([{ lines: MISTYPED.map((v) => `Account ${v}`) }]);
    const res = await postForm(PATH, { file: file(pdf, "iban.pdf"), entity_types: "CREDIT_CARD" }, withKey(key));
    const body = (await res.json()) as { url: string; redactions_made: number; entities: Record<string, number> };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ redactions_made: 0, entities: {} });
    const [text] = await pageTexts(await download(body.url));
    for (const v of MISTYPED) expect(text).toContain(`Account ${v}`);
  });
});
