import { describe, expect, it } from "vitest";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { download, postForm, problem, file } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, fixturePdf, makeImage, plainPdf } from "../../support/pdf.mjs";
import { pageTexts, squash } from "../../support/pdf-text";
import { inkOn, reddish } from "../../support/mupdf";

const PATH = "/api/v1/pdf/page-numbers";
type Fields = Record<string, string | File>;

async function number(pdf: Uint8Array, fields: Fields = {}): Promise<{ out: Uint8Array; texts: string[]; body: Record<string, unknown> }> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), ...fields });
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  const out = await download(body.url as string);
  return { out, texts: await pageTexts(out), body };
}

/** The label on a page: its text minus the fixture's own line. */
const labelOf = (text: string, own: string): string => text.replace(own, "").trim();

describe("page numbers: format", () => {
  it("defaults: {n} from 1 on every page, bottom centre, 11 pt black", async () => {
    const { texts, body } = await number(await plainPdf(3, "Body"));
    expect(body).toMatchObject({ success: true });
    expect(texts.map((t, i) => labelOf(t, `Body ${i + 1}`))).toEqual(["1", "2", "3"]);
    const { out } = await number(await fixturePdf([{}]), { fmt: "88" });
    const ink = await inkOn(out, 0, (r, g, b) => r < 60 && g < 60 && b < 60);
    expect(Math.abs(ink.centroid[0] - 297.5)).toBeLessThan(3);
    expect(ink.box[3]).toBeGreaterThan(842 - 60);
    // 11 pt digits are about 8 pt tall.
    expect(ink.box[3] - ink.box[1]).toBeGreaterThan(6);
    expect(ink.box[3] - ink.box[1]).toBeLessThan(11);
  });

  const formats: [string, Fields, string[]][] = [
    ["{n} with start", { start: "7" }, ["7", "8", "9", "10"]],
    ["{roman}", { fmt: "{roman}", start: "8" }, ["viii", "ix", "x", "xi"]],
    ["{ROMAN}", { fmt: "{ROMAN}", start: "1999" }, ["MCMXCIX", "MM", "MMI", "MMII"]],
    ["{alpha}", { fmt: "{alpha}", start: "25" }, ["y", "z", "aa", "ab"]],
    ["{ALPHA}", { fmt: "{ALPHA}", start: "1" }, ["A", "B", "C", "D"]],
    ["literal text around {n} and {total}", { fmt: "Page {n} of {total}" }, ["Page 1 of 4", "Page 2 of 4", "Page 3 of 4", "Page 4 of 4"]],
    [
      "every token at once",
      { fmt: "{n}/{roman}/{ROMAN}/{alpha}/{ALPHA}/{total}", start: "3" },
      ["3/iii/III/c/C/4", "4/iv/IV/d/D/4", "5/v/V/e/E/4", "6/vi/VI/f/F/4"],
    ],
    [
      "non-ASCII literals",
      { fmt: "Seite {n} · Страница {n} · 第{n}页" },
      ["Seite1·Страница1·第1页", "Seite2·Страница2·第2页", "Seite3·Страница3·第3页", "Seite4·Страница4·第4页"],
    ],
    ["repeated braces that are not tokens", { fmt: "[{n}] {{n}}" }, ["[1]{1}", "[2]{2}", "[3]{3}", "[4]{4}"]],
  ];
  for (const [label, fields, expected] of formats) {
    it(label, async () => {
      const { texts } = await number(await plainPdf(4, "Body"), fields);
      expect(texts.map((t, i) => squash(labelOf(t, `Body ${i + 1}`)))).toEqual(expected.map(squash));
    });
  }

  it("first_page skips the front pages and {total} counts numbered pages only", async () => {
    const { texts } = await number(await plainPdf(5, "Body"), { first_page: "3", fmt: "{n} / {total}", start: "1" });
    expect(texts.map((t, i) => squash(labelOf(t, `Body ${i + 1}`)))).toEqual(["", "", "1/3", "2/3", "3/3"]);
  });

  itWithCorpus("numbers a real corpus PDF", async () => {
    const pdf = await corpusFile("pdfjs/plain/doc_1_3_pages.pdf");
    const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), fmt: "NUM-{n}" });
    const body = (await res.json()) as { url: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const texts = await pageTexts(await download(body.url));
    texts.forEach((t, i) => expect(t).toContain(`NUM-${i + 1}`));
  });
});

describe("page numbers: placement, size and colour", () => {
  const margin = 60;
  for (const spec of [{}, { rotate: 90 as const }, { rotate: 180 as const, crop: [30, 40, 500, 700] as [number, number, number, number] }]) {
    it(`positions on ${JSON.stringify(spec)} follow the page as the reader sees it`, async () => {
      const pdf = await fixturePdf([spec]);
      const checks: [string, (i: { box: number[]; centroid: number[]; page: number[] }) => boolean][] = [
        ["bottom-center", (i) => Math.abs(i.centroid[0] - i.page[0] / 2) < 6 && i.box[3] > i.page[1] - margin],
        ["bottom_left", (i) => i.box[0] < margin && i.box[3] > i.page[1] - margin],
        ["bottom-right", (i) => i.box[2] > i.page[0] - margin && i.box[3] > i.page[1] - margin],
        ["top-left", (i) => i.box[0] < margin && i.box[1] < margin],
        ["top_center", (i) => Math.abs(i.centroid[0] - i.page[0] / 2) < 6 && i.box[1] < margin],
        ["top-right", (i) => i.box[2] > i.page[0] - margin && i.box[1] < margin],
        ["center", (i) => Math.abs(i.centroid[0] - i.page[0] / 2) < 6 && Math.abs(i.centroid[1] - i.page[1] / 2) < 6],
      ];
      for (const [position, ok] of checks) {
        const { out } = await number(pdf, { position, color: "#ff0000", fmt: "- {n} -" });
        const ink = await inkOn(out, 0, reddish);
        expect(ok(ink), `${position}: ${JSON.stringify(ink)}`).toBe(true);
        // Upright for the reader: wider than tall.
        expect(ink.box[2] - ink.box[0]).toBeGreaterThan(ink.box[3] - ink.box[1]);
      }
    });
  }

  it("font_size and color", async () => {
    const pdf = await plainPdf(1);
    const small = await inkOn((await number(pdf, { font_size: "10", color: "#ff0000", fmt: "8888" })).out, 0, reddish);
    const big = await inkOn((await number(pdf, { font_size: "40", color: "#FF0000", fmt: "8888" })).out, 0, reddish);
    expect(small.strongest[1]).toBeLessThan(40);
    const ratio = (big.box[3] - big.box[1]) / (small.box[3] - small.box[1]);
    expect(ratio).toBeGreaterThan(3.4);
    expect(ratio).toBeLessThan(4.6);
  });
});

describe("page numbers: errors", () => {
  const invalid: [string, Fields][] = [
    ["fmt", { fmt: "{page}" }],
    ["fmt", { fmt: "   " }],
    ["fmt", { fmt: "x".repeat(201) }],
    ["start", { start: "-1" }],
    ["start", { start: "one" }],
    ["first_page", { first_page: "0" }],
    ["font_size", { font_size: "0" }],
    ["font_size", { font_size: "500" }],
    ["color", { color: "black" }],
    ["position", { position: "left" }],
  ];
  for (const [field, fields] of invalid) {
    it(`422 for ${field} = ${JSON.stringify(Object.values(fields)[0]).slice(0, 30)}`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(2), "a.pdf"), ...fields });
      expect(res.status).toBe(422);
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
      expect((await problem(res)).code).toBe("validation_failed");
    });
  }

  const semantic: [string, Fields][] = [
    ["first_page beyond the last page", { first_page: "3" }],
    ["{roman} from 0", { fmt: "{roman}", start: "0" }],
    ["{roman} above 3999", { fmt: "{ROMAN}", start: "3999" }],
    ["{alpha} from 0", { fmt: "{alpha}", start: "0" }],
    ["a character no font can draw", { fmt: "עמוד {n}" }],
  ];
  for (const [label, fields] of semantic) {
    it(`422 for ${label}`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(2), "a.pdf"), ...fields });
      expect(res.status).toBe(422);
      expect((await problem(res)).code).toBe("validation_failed");
    });
  }

  it("415 for a non-PDF, judged by name and by content", async () => {
    const byName = await postForm(PATH, { file: file(await plainPdf(1), "doc.txt", "text/plain") });
    expect(byName.status).toBe(415);
    expect((await problem(byName)).code).toBe("unsupported_media_type");
    const png = await makeImage("png", 20, 20, [0, 0, 255]);
    const byContent = await postForm(PATH, { file: file(png, "picture.pdf") });
    expect(byContent.status).toBe(415);
    expect((await problem(byContent)).code).toBe("unsupported_media_type");
    const missing = await postForm(PATH, { fmt: "{n}" });
    expect(missing.status).toBe(415);
  });

  it("422 for a corrupt or password-protected PDF", async () => {
    const broken = await postForm(PATH, { file: file(corruptPdf(), "a.pdf") });
    expect(broken.status).toBe(422);
    expect((await problem(broken)).code).toBe("unreadable_document");
    const locked = await postForm(PATH, { file: file(await encryptedPdf(), "a.pdf") });
    expect(locked.status).toBe(422);
    expect((await problem(locked)).code).toBe("password_protected");
  });
});

describe("page numbers: credits", () => {
  it("charges 10 with a key, refunds failures, 0 anonymously", async () => {
    await expectMetering(
      PATH,
      async () => ({ file: file(await plainPdf(2), "a.pdf") }),
      async () => ({ file: file(await plainPdf(2), "a.pdf"), first_page: "9" }),
      10,
      "free",
    );
  });
});
