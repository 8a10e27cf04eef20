import { describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { accountWithKey } from "../../support/accounts";
import { describeWithCorpus } from "../../support/corpus";
import { call, download, postForm, problem, withKey, file } from "../../support/http";
import { redactPdf } from "../../../src/engines/mupdf/redact/redact";
import { verifyRemoval } from "../../../src/engines/mupdf/redact/redact-verify";
import { ENTITY_TYPES } from "../../../src/engines/pii/entity-types";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, fixturePdf, makeImage } from "../../support/pdf.mjs";
import { embeddedImageSizes, streamsContain } from "../../support/pdf-read";
import { pageTexts, squash } from "../../support/pdf-text";
import { bluish, inkOn } from "../../support/mupdf";
import { ourExpected, PRESIDIO_TYPES, presidioVectors } from "../../support/presidio";
import type { Answer } from "../../support/answers";

const PATH = "/api/v1/redact";
type Fields = Record<string, string | File>;

let key: string | undefined;
async function auth(): Promise<Record<string, string>> {
  key ??= (await accountWithKey({ credits: 100_000 })).key;
  return withKey(key);
}

type RedactBody = Answer<"redact">;

async function redact(pdf: Uint8Array, fields: Fields = {}): Promise<{ body: RedactBody; out: Uint8Array; texts: string[] }> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), ...fields }, await auth());
  const body = (await res.json()) as RedactBody;
  expect(res.status, JSON.stringify(body)).toBe(200);
  const out = await download(body.url);
  return { body, out, texts: await pageTexts(out) };
}

const ALL_NINE: [string, string][] = [
  ["CREDIT_CARD", "4111 1111 1111 1111"],
  ["AADHAAR", "3123 4567 8909"],
  ["IBAN", "DE89 3704 0044 0532 0130 00"],
  ["US_SSN", "078-05-1123"],
  ["US_ITIN", "912-70-1234"],
  ["PAN_INDIA", "ABCPD1234Z"],
  ["EMAIL", "jane.doe@example.org"],
  ["IP_ADDRESS", "192.168.10.254"],
  ["PHONE", "+44 20 7946 0958"],
];

describe("redact: the nine entity types", () => {
  it("finds and removes one of each, keeps the rest of the text", async () => {
    const pdf = await fixturePdf([{ lines: ALL_NINE.map(([type, value]) => `Field ${type.toLowerCase()}: ${value} (kept)`) }]);
    for (const [, value] of ALL_NINE) expect(await streamsContain(pdf, value)).toBe(true);
    const { body, out, texts } = await redact(pdf);
    expect(body).toMatchObject({ success: true, pages: 1, redactions_made: 9, text_fully_removed: true, credits_charged: 40 });
    expect(body.entities).toEqual(Object.fromEntries(ALL_NINE.map(([t]) => [t, 1])));
    for (const [type, value] of ALL_NINE) {
      expect(squash(texts[0])).not.toContain(squash(value));
      expect(texts[0]).toContain(`Field ${type.toLowerCase()}:`);
      expect(await streamsContain(out, value), value).toBe(false);
    }
    expect(texts[0].match(/\(kept\)/g)).toHaveLength(9);
  });

  it("leaves numbers that fail their checksum or range alone", async () => {
    const lookalikes = ["4111 1111 1111 1112", "1234 5678 9012", "DE89 3704 0044 0532 0130 01", "666-12-3456", "912-89-1234", "300.1.2.3"];
    const { body, texts } = await redact(await fixturePdf([{ lines: lookalikes.map((v) => `Value ${v} here`) }]));
    expect(body.redactions_made).toBe(0);
    expect(body.entities).toEqual({});
    expect(body.text_fully_removed).toBe(true);
    for (const v of lookalikes) expect(texts[0]).toContain(v);
  });

  it("entity_types narrows the search, in any case and spacing", async () => {
    const pdf = await fixturePdf([{ lines: ALL_NINE.map(([, v]) => `x ${v} y`) }]);
    const { body, texts } = await redact(pdf, { entity_types: " email,Phone " });
    expect(body.entities).toEqual({ EMAIL: 1, PHONE: 1 });
    expect(squash(texts[0])).not.toContain("jane.doe@example.org");
    expect(squash(texts[0])).toContain(squash("4111 1111 1111 1111"));
  });
});

describeWithCorpus("redact: Presidio's recogniser strings, one type at a time", async () => {
  const rows = await presidioVectors();

  for (const entity of Object.keys(PRESIDIO_TYPES)) {
    it(`${entity}: every expected value is removed, every look-alike kept`, async () => {
      const mine = rows.filter((r) => r.entity === entity).map((r) => ({ ...r, expected: ourExpected(r) }));
      // One vector per line, fenced by words so lines never run together.
      const lines = mine.map((r) => `case ${r.text} end`);
      const perPage = 40;
      const pages = Array.from({ length: Math.ceil(lines.length / perPage) }, (_, p) => ({ lines: lines.slice(p * perPage, (p + 1) * perPage), fontSize: 9 }));
      const { body, texts } = await redact(await fixturePdf(pages), { entity_types: PRESIDIO_TYPES[entity] });
      // Spaces are kept (only runs of them folded): "G T82 ..." and "GT82 ..." are different rows.
      const fold = (t: string) => t.replace(/\s+/g, " ");
      const all = fold(texts.join(" "));
      const expectedCount = mine.reduce((n, r) => n + r.expected.length, 0);
      expect(body.entities[PRESIDIO_TYPES[entity]] ?? 0).toBe(expectedCount);
      expect(body.text_fully_removed).toBe(true);
      for (const r of mine) {
        if (r.expected.length === 0) expect(all, r.text).toContain(fold(`case ${r.text} end`));
        else expect(all, r.text).not.toContain(fold(`case ${r.text} end`));
      }
    });
  }
});

describe("redact: layout", () => {
  it("finds entities wrapped over two lines and split into several text runs", async () => {
    const doc = await PDFDocument.create();
    const helv = await doc.embedFont(StandardFonts.Helvetica);
    const mono = await doc.embedFont(StandardFonts.Courier);
    const page = doc.addPage([595, 842]);
    const draw = (t: string, x: number, y: number, font = helv) => page.drawText(t, { x, y, size: 12, font, color: rgb(0, 0, 0) });
    draw("Card number 4111 1111", 40, 760);
    draw("1111 1111 was used.", 40, 745);
    draw("Call 415-555-", 40, 715);
    draw("0132 today.", 40, 700);
    // One address in two runs and two fonts, set edge to edge on one baseline.
    draw("Mail jane.doe@", 40, 670);
    draw("example.org now", 40 + helv.widthOfTextAtSize("Mail jane.doe@", 12), 670, mono);
    draw("IBAN DE89 3704 0044", 40, 640);
    draw("0532 0130 00 thanks", 40, 625);
    const { body, texts } = await redact(await doc.save());
    expect(body.entities).toEqual({ CREDIT_CARD: 1, PHONE: 1, EMAIL: 1, IBAN: 1 });
    // Entities over two lines get a box on each line.
    expect(body.redactions_made).toBe(7);
    expect(body.text_fully_removed).toBe(true);
    const t = squash(texts[0]);
    for (const gone of ["4111", "0132", "jane.doe", "example.org", "DE89", "0532"]) expect(t).not.toContain(gone);
    for (const kept of ["Cardnumber", "wasused.", "Call", "today.", "Mail", "now", "IBAN", "thanks"]) expect(t).toContain(kept);
  });

  it("works on rotated and cropped pages", async () => {
    const pdf = await fixturePdf([
      { rotate: 90, lines: ["SSN 078-05-1123 rotated"] },
      { rotate: 270, crop: [0, 400, 595, 442], lines: ["Mail a.b@example.com cropped"] },
    ]);
    const { body, texts } = await redact(pdf);
    expect(body.pages).toBe(2);
    expect(body.entities).toEqual({ US_SSN: 1, EMAIL: 1 });
    expect(texts[0]).not.toContain("078-05-1123");
    expect(texts[0]).toContain("rotated");
    expect(texts[1]).not.toContain("a.b@example.com");
  });

  it("keeps images, even under a redacted line", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const image = await doc.embedPng(await makeImage("png", 300, 150, [0, 0, 255]));
    const page = doc.addPage([595, 842]);
    page.drawImage(image, { x: 40, y: 600, width: 300, height: 150 });
    page.drawText("card 4111 1111 1111 1111", { x: 50, y: 670, size: 12, font, color: rgb(1, 1, 1) });
    const pdf = await doc.save();
    const before = await inkOn(pdf, 0, bluish);
    const { body, out } = await redact(pdf);
    expect(body.entities).toEqual({ CREDIT_CARD: 1 });
    expect(await embeddedImageSizes(out)).toContainEqual([300, 150]);
    const after = await inkOn(out, 0, bluish);
    // Only the black box over the number hides part of the picture.
    expect(after.count).toBeGreaterThan(before.count * 0.85);
    expect(after.box).toEqual(before.box);
  });

  it("removes text drawn from a Form XObject shared by every page", async () => {
    // The text watermark draws its text from one shared Form XObject.
    const w = await postForm("/api/v1/watermark/text", {
      file: file(await fixturePdf([{ lines: ["one"] }, { lines: ["two"] }]), "a.pdf"),
      text: "jane@example.org",
    });
    const stamped = await download(((await w.json()) as { url: string }).url);
    expect((await pageTexts(stamped)).every((t) => t.includes("jane@example.org"))).toBe(true);
    const { body, texts } = await redact(stamped);
    expect(body).toMatchObject({ entities: { EMAIL: 2 }, redactions_made: 2, text_fully_removed: true });
    expect(texts.some((t) => t.includes("jane@example.org"))).toBe(false);
    expect(texts[0]).toContain("one");
  });

  it("a document with no PII comes back with nothing removed", async () => {
    const { body, texts } = await redact(await fixturePdf([{ lines: ["Nothing personal here.", "Order 12345, total 99.50 EUR"] }]));
    expect(body).toMatchObject({ redactions_made: 0, entities: {}, text_fully_removed: true, pages: 1 });
    expect(texts[0]).toContain("Order 12345, total 99.50 EUR");
  });
});

describe("redact: text_fully_removed is measured, not assumed", () => {
  it("the check re-reads a file and fails when the text is still there", async () => {
    const pdf = await fixturePdf([{ lines: ["SSN 078-05-1123 and mail jane@example.org"] }]);
    const result = await redactPdf(pdf, ENTITY_TYPES);
    expect(result.fullyRemoved).toBe(true);
    expect(result.areas[0].quads).toHaveLength(2);
    // The same boxes over the original file: the text is still under them.
    expect(await verifyRemoval(pdf, result.areas, ENTITY_TYPES)).toBe(false);
    expect(await verifyRemoval(result.data, result.areas, ENTITY_TYPES)).toBe(true);
  });
});

describe("redact: errors and access", () => {
  it("422 for an unknown entity type, or none", async () => {
    for (const entity_types of ["EMAIL,PASSPORT", ","]) {
      const res = await postForm(PATH, { file: file(await fixturePdf([{}]), "a.pdf"), entity_types }, await auth());
      expect(res.status).toBe(422);
      const p = await problem(res);
      expect(p.code).toBe("validation_failed");
      expect(p.errors?.map((e) => e.field)).toContain("entity_types");
    }
  });

  it("415 for a non-.pdf name, a non-PDF body or no file", async () => {
    const pdf = await fixturePdf([{}]);
    for (const fields of [{ file: file(pdf, "a.txt", "text/plain") }, { file: file(await makeImage("png", 5, 5, [0, 0, 0]), "a.pdf") }, {}]) {
      const res = await postForm(PATH, fields, await auth());
      expect(res.status).toBe(415);
      expect((await problem(res)).code).toBe("unsupported_media_type");
    }
  });

  it("422 for a password-protected or corrupt PDF", async () => {
    const locked = await postForm(PATH, { file: file(await encryptedPdf(), "a.pdf") }, await auth());
    expect(locked.status).toBe(422);
    expect((await problem(locked)).code).toBe("password_protected");
    const broken = await postForm(PATH, { file: file(corruptPdf(), "a.pdf") }, await auth());
    expect(broken.status).toBe(422);
    expect((await problem(broken)).code).toBe("unreadable_document");
  });

  it("is login-class: 40 credits with a key, refunds, 401 anonymously", async () => {
    await expectMetering(
      PATH,
      async () => ({ file: file(await fixturePdf([{ lines: ["jane@example.org"] }]), "a.pdf") }),
      async () => ({ file: file(corruptPdf(), "a.pdf") }),
      40,
      "401",
    );
  });

  it("GET /api/v1/redact/entity-types is public and sorted", async () => {
    const res = await call("/api/v1/redact/entity-types");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entity_types: string[] };
    expect(body.entity_types).toEqual(["AADHAAR", "CREDIT_CARD", "EMAIL", "IBAN", "IP_ADDRESS", "PAN_INDIA", "PHONE", "US_ITIN", "US_SSN"]);
  });
});
