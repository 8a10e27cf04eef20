import { describe, expect, it } from "vitest";
import { download, postForm, problem, file } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, fixturePdf, plainPdf, type PageSpec } from "../../support/pdf.mjs";
import { embeddedFonts } from "../../support/pdf-read";
import { pageTexts, squash } from "../../support/pdf-text";
import { greenish, inkOn, lineDirections, reddish } from "../../support/mupdf";

const PATH = "/api/v1/watermark/text";
type Fields = Record<string, string | File>;

async function stamp(pdf: Uint8Array, fields: Fields): Promise<{ out: Uint8Array; body: Record<string, unknown> }> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), ...fields });
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { out: await download(body.url as string), body };
}

const red = { color: "#ff0000", opacity: "1" };

// Shaped Arabic is drawn in presentation forms (U+FExx), which copy-and-paste
// gives back; NFKC folds them to the letters typed, as search in a viewer does.
const nfkc = (s: string) => squash(s.normalize("NFKC"));

describe("text watermark: scripts and selectable text", () => {
  const scripts: [string, string, RegExp][] = [
    ["Latin with accents", "Café déjà-vu Ñandú Łódź", /NimbusSans/],
    ["Cyrillic", "Конфиденциально Жёлтый", /NimbusSans/],
    ["Greek", "Εμπιστευτικό Ωμέγα", /NimbusSans/],
    ["Arabic", "سري للغاية", /NotoSansArabic/],
    ["Chinese", "机密文件", /DroidSansFallback/],
    ["Japanese", "社外秘です", /DroidSansFallback/],
    ["Korean", "대외비 문서", /DroidSansFallback/],
  ];
  for (const [name, text, font] of scripts) {
    it(`${name}: the text is on every page as real text, in an embedded font, and drawn`, async () => {
      const { out, body } = await stamp(await plainPdf(2), { text, ...red });
      expect(body.meta).toMatchObject({ pages_watermarked: 2, watermark_type: "text" });
      const texts = await pageTexts(out);
      expect(texts).toHaveLength(2);
      for (const t of texts) expect(nfkc(t)).toContain(nfkc(text));
      expect((await embeddedFonts(out)).some((f) => font.test(f.replace(/^[A-Z]{6}\+/, "").replace(/\s|-/g, "")))).toBe(true);
      expect((await inkOn(out, 1, reddish)).count).toBeGreaterThan(100);
    });
  }

  it("mixes scripts in one watermark and keeps the original page text", async () => {
    const text = "Draft Черновик مسودة 草稿";
    const { out } = await stamp(await plainPdf(1, "Original"), { text });
    const [t] = await pageTexts(out);
    expect(t).toContain("Original 1");
    for (const word of ["Draft", "Черновик", "مسودة", "草稿"]) expect(nfkc(t)).toContain(word);
  });

  it("accepts exactly 100 characters (101 is a 422, below)", async () => {
    // 100 CJK characters at 8 pt are 800 pt long: turned upright they fit an A4 page.
    const cjk100 = "機".repeat(100);
    const { out } = await stamp(await plainPdf(1), { text: cjk100, font_size: "8", rotation: "90" });
    expect(squash((await pageTexts(out))[0])).toContain(cjk100);
  });
});

describe("text watermark: placement as the reader sees the page", () => {
  const margin = 60;
  const cases: [string, (ink: { box: number[]; centroid: number[]; page: number[] }) => void][] = [
    ["center", (i) => expect(Math.abs(i.centroid[0] - i.page[0] / 2) < 10 && Math.abs(i.centroid[1] - i.page[1] / 2) < 10, JSON.stringify(i)).toBe(true)],
    ["top-left", (i) => expect(i.box[0] < margin && i.box[1] < margin, JSON.stringify(i)).toBe(true)],
    ["top_right", (i) => expect(i.box[2] > i.page[0] - margin && i.box[1] < margin, JSON.stringify(i)).toBe(true)],
    ["bottom-left", (i) => expect(i.box[0] < margin && i.box[3] > i.page[1] - margin, JSON.stringify(i)).toBe(true)],
    ["BOTTOM_RIGHT", (i) => expect(i.box[2] > i.page[0] - margin && i.box[3] > i.page[1] - margin, JSON.stringify(i)).toBe(true)],
    ["top_center", (i) => expect(Math.abs(i.centroid[0] - i.page[0] / 2) < 10 && i.box[1] < margin, JSON.stringify(i)).toBe(true)],
    ["bottom-center", (i) => expect(Math.abs(i.centroid[0] - i.page[0] / 2) < 10 && i.box[3] > i.page[1] - margin, JSON.stringify(i)).toBe(true)],
  ];
  const pages: [string, PageSpec][] = [
    ["upright A4", {}],
    ["rotated 90", { rotate: 90 }],
    ["rotated 180", { rotate: 180 }],
    ["rotated 270 with a crop box", { rotate: 270, crop: [50, 100, 400, 500] }],
    ["landscape with an offset crop box", { size: [842, 595], crop: [100, 50, 600, 400] }],
  ];
  for (const [label, spec] of pages) {
    it(`${label}: every position lands in its corner of the visible page, text reading left to right`, async () => {
      const pdf = await fixturePdf([{ ...spec, lines: ["Body text"] }]);
      for (const [position, check] of cases) {
        const { out } = await stamp(pdf, { text: "WATERMARK", position, ...red });
        const ink = await inkOn(out, 0, reddish);
        expect(ink.count, position).toBeGreaterThan(100);
        check(ink);
        const line = (await lineDirections(out, 0)).find((l) => l.text.includes("WATERMARK"));
        expect(line?.dir[0], position).toBeCloseTo(1, 3);
        expect(line?.dir[1], position).toBeCloseTo(0, 3);
      }
    });
  }
});

describe("text watermark: style", () => {
  it("opacity blends the colour with the page", async () => {
    const pdf = await plainPdf(1);
    const solid = await inkOn((await stamp(pdf, { text: "OPACITY", font_size: "72", ...red })).out, 0, reddish);
    const faint = await inkOn((await stamp(pdf, { text: "OPACITY", font_size: "72", color: "#ff0000", opacity: "0.3" })).out, 0, reddish);
    expect(solid.strongest[1]).toBeLessThan(20);
    // 30% red over white: green and blue at about 255 * 0.7.
    expect(faint.strongest[1]).toBeGreaterThan(165);
    expect(faint.strongest[1]).toBeLessThan(195);
    const none = await inkOn((await stamp(pdf, { text: "OPACITY", color: "#ff0000", opacity: "0" })).out, 0, reddish);
    expect(none.count).toBe(0);
  });

  it("the default is 30% black, centred, 24 pt", async () => {
    const { out } = await stamp(await fixturePdf([{}]), { text: "DEFAULTS" });
    const ink = await inkOn(out, 0, (r, g, b) => r < 250 && r === g && g === b);
    expect(ink.strongest[0]).toBeGreaterThan(165);
    expect(Math.abs(ink.centroid[0] - 297.5)).toBeLessThan(10);
    expect(Math.abs(ink.centroid[1] - 421)).toBeLessThan(10);
    expect(ink.box[3] - ink.box[1]).toBeGreaterThan(14);
    expect(ink.box[3] - ink.box[1]).toBeLessThan(26);
  });

  it("font_size scales the text", async () => {
    const pdf = await plainPdf(1);
    const small = await inkOn((await stamp(pdf, { text: "SIZE", font_size: "12", ...red })).out, 0, reddish);
    const big = await inkOn((await stamp(pdf, { text: "SIZE", font_size: "48", ...red })).out, 0, reddish);
    const ratio = (big.box[2] - big.box[0]) / (small.box[2] - small.box[0]);
    expect(ratio).toBeGreaterThan(3.6);
    expect(ratio).toBeLessThan(4.4);
  });

  it("color sets the fill", async () => {
    const { out } = await stamp(await plainPdf(1), { text: "GREEN", color: "#00AA00", opacity: "1", font_size: "48" });
    expect((await inkOn(out, 0, greenish)).count).toBeGreaterThan(200);
    expect((await inkOn(out, 0, reddish)).count).toBe(0);
  });

  it("rotation turns the text counter-clockwise as seen, on rotated pages too", async () => {
    for (const rotate of [0, 90] as const) {
      const pdf = await fixturePdf([{ rotate }]);
      for (const [rotation, dir] of [
        [90, [0, -1]],
        [-45, [Math.SQRT1_2, Math.SQRT1_2]],
        [180, [-1, 0]],
      ] as const) {
        const { out } = await stamp(pdf, { text: "TURN", rotation: String(rotation), ...red });
        const line = (await lineDirections(out, 0)).find((l) => l.text.includes("TURN"));
        expect(line?.dir[0], `${rotate}/${rotation}`).toBeCloseTo(dir[0], 3);
        expect(line?.dir[1], `${rotate}/${rotation}`).toBeCloseTo(dir[1], 3);
        const ink = await inkOn(out, 0, reddish);
        expect(Math.abs(ink.centroid[0] - ink.page[0] / 2)).toBeLessThan(12);
        expect(Math.abs(ink.centroid[1] - ink.page[1] / 2)).toBeLessThan(12);
      }
    }
  });

  it("tile covers the page with copies at 45 degrees when rotation is 0", async () => {
    const pdf = await fixturePdf([{}, { rotate: 90, crop: [0, 0, 400, 600] }]);
    const { out } = await stamp(pdf, { text: "COPY", tile: "true", position: "top-left", ...red });
    for (const index of [0, 1]) {
      const lines = (await lineDirections(out, index)).filter((l) => l.text.includes("COPY"));
      expect(lines.length).toBeGreaterThanOrEqual(8);
      for (const l of lines) {
        expect(l.dir[0]).toBeCloseTo(Math.SQRT1_2, 3);
        expect(l.dir[1]).toBeCloseTo(-Math.SQRT1_2, 3);
      }
      const ink = await inkOn(out, index, reddish);
      expect(ink.box[0]).toBeLessThan(ink.page[0] * 0.1);
      expect(ink.box[2]).toBeGreaterThan(ink.page[0] * 0.9);
      expect(ink.box[1]).toBeLessThan(ink.page[1] * 0.1);
      expect(ink.box[3]).toBeGreaterThan(ink.page[1] * 0.9);
    }
  });

  it("tile keeps an explicit rotation", async () => {
    const { out } = await stamp(await plainPdf(1), { text: "COPY", tile: "1", rotation: "-30", ...red });
    const lines = (await lineDirections(out, 0)).filter((l) => l.text.includes("COPY"));
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const l of lines) {
      expect(l.dir[0]).toBeCloseTo(Math.cos(Math.PI / 6), 3);
      expect(l.dir[1]).toBeCloseTo(Math.sin(Math.PI / 6), 3);
    }
  });
});

describe("text watermark: errors", () => {
  const invalid: [string, Fields][] = [
    ["text", { text: "   " }],
    ["text", { text: "x".repeat(101) }],
    ["text", { text: "界".repeat(101) }],
    ["opacity", { text: "a", opacity: "-0.1" }],
    ["opacity", { text: "a", opacity: "1.01" }],
    ["opacity", { text: "a", opacity: "half" }],
    ["font_size", { text: "a", font_size: "7" }],
    ["font_size", { text: "a", font_size: "73" }],
    ["font_size", { text: "a", font_size: "12.5" }],
    ["color", { text: "a", color: "red" }],
    ["color", { text: "a", color: "#12345" }],
    ["color", { text: "a", color: "#12345g" }],
    ["rotation", { text: "a", rotation: "-181" }],
    ["rotation", { text: "a", rotation: "181" }],
    ["position", { text: "a", position: "middle" }],
    ["tile", { text: "a", tile: "sometimes" }],
  ];
  for (const [field, fields] of invalid) {
    it(`422 for ${field} = ${JSON.stringify(Object.values(fields).at(-1)).slice(0, 40)}`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf"), ...fields });
      expect(res.status).toBe(422);
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
      const p = await problem(res);
      expect(p.code).toBe("validation_failed");
      expect(p.errors?.map((e) => e.field)).toContain(field);
    });
  }

  it("422 when text is missing", async () => {
    const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf") });
    expect(res.status).toBe(422);
    expect((await problem(res)).errors?.map((e) => e.field)).toContain("text");
  });

  for (const [label, text] of [
    ["Hebrew", "שלום"],
    ["Vietnamese stacked accents", "Tiếng Việt"],
    ["emoji", "OK 😀"],
  ]) {
    it(`422 for characters no shipped font can draw (${label})`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf"), text });
      expect(res.status).toBe(422);
      const p = await problem(res);
      expect(p.code).toBe("validation_failed");
      expect(p.detail).toMatch(/U\+[0-9A-F]{4}/);
    });
  }

  it("422 password_protected for an encrypted PDF", async () => {
    const res = await postForm(PATH, { file: file(await encryptedPdf(), "locked.pdf"), text: "x" });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("password_protected");
  });

  it("422 unreadable_document for a corrupt PDF", async () => {
    const res = await postForm(PATH, { file: file(corruptPdf(), "broken.pdf"), text: "x" });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("unreadable_document");
  });

  it("415 for a file not named .pdf", async () => {
    const res = await postForm(PATH, { file: file(await plainPdf(1), "notes.txt", "text/plain"), text: "x" });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_media_type");
  });
});

describe("text watermark: credits", () => {
  it("charges 10 with a key, refunds failures, 0 anonymously", async () => {
    await expectMetering(
      PATH,
      async () => ({ file: file(await plainPdf(1), "a.pdf"), text: "PAID" }),
      async () => ({ file: file(corruptPdf(), "a.pdf"), text: "PAID" }),
      10,
      "free",
    );
  });
});
