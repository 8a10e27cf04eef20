import { describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { download, postForm, problem, file } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, fixturePdf, makeImage, plainPdf } from "../../support/pdf.mjs";
import { embeddedImageSizes } from "../../support/pdf-read";
import { pageTexts } from "../../support/pdf-text";
import { blobsOn, bluish, dark, inkOn } from "../../support/mupdf";
import { pngHeaderOnly } from "../../support/forged";

const PATH = "/api/v1/watermark/image";
type Fields = Record<string, string | File>;

const png = (data: Uint8Array, name = "mark.png") => file(data, name, "image/png");

async function stamp(pdf: Uint8Array, image: File, fields: Fields = {}): Promise<{ out: Uint8Array; body: Record<string, unknown> }> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), watermark: image, ...fields });
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { out: await download(body.url as string), body };
}

/** A page with big black text right where a centred watermark goes. */
async function pageWithCentreText(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  page.drawText("UNDER", { x: 255, y: 410, size: 30, font, color: rgb(0, 0, 0) });
  return doc.save();
}

describe("image watermark: PNG and JPEG", () => {
  it("PNG alpha is kept: the page shows through the transparent hole", async () => {
    const pdf = await pageWithCentreText();
    const { out, body } = await stamp(pdf, png(await makeImage("png", 400, 400, [0, 0, 255], true)), { opacity: "1" });
    expect(body.meta).toMatchObject({ pages_watermarked: 1, watermark_type: "image" });
    const ink = await inkOn(out, 0, bluish);
    expect(Math.abs(ink.centroid[0] - 297.5)).toBeLessThan(3);
    expect(Math.abs(ink.centroid[1] - 421)).toBeLessThan(3);
    // The black text under the hole is still visible, and the blue frame hides nothing else.
    const under = await inkOn(out, 0, dark);
    expect(under.count).toBeGreaterThan(50);
    expect(under.box[0]).toBeGreaterThan(ink.box[0]);
    expect(under.box[2]).toBeLessThan(ink.box[2]);
    expect((await pageTexts(out))[0]).toContain("UNDER");
  });

  itWithCorpus("the corpus RGBA PNG keeps transparent pixels transparent", async () => {
    const { out } = await stamp(await plainPdf(1), png(await corpusFile("images/libvips/trans-x.png")), { opacity: "1", scale: "2" });
    const sizes = await embeddedImageSizes(out);
    expect(sizes).toContainEqual([100, 100]);
    // An SMask (the alpha channel) is embedded beside the colour image.
    expect(sizes.filter(([w, h]) => w === 100 && h === 100).length).toBe(2);
  });

  it("JPEG is accepted, opacity 0.5 blends it", async () => {
    const jpeg = file(await makeImage("jpeg", 300, 200, [0, 0, 255]), "mark.jpg", "image/jpeg");
    const { out } = await stamp(await plainPdf(1), jpeg);
    const ink = await inkOn(out, 0, bluish);
    expect(ink.count).toBeGreaterThan(1000);
    expect(ink.strongest[0]).toBeGreaterThan(110);
    expect(ink.strongest[0]).toBeLessThan(150);
    expect(await embeddedImageSizes(out)).toContainEqual([300, 200]);
  });

  itWithCorpus("real corpus JPEG and the content decides the type, not the name", async () => {
    const jpeg = await corpusFile("images/libvips/sample.jpg");
    const { out } = await stamp(await plainPdf(2), file(jpeg, "photo.png", "image/png"));
    expect(await embeddedImageSizes(out)).toContainEqual([290, 442]);
  });

  it("downscales to 1000 px on the longer side, smaller images stay as they are", async () => {
    const { out } = await stamp(await plainPdf(1), png(await makeImage("png", 2400, 1200, [0, 0, 255])));
    expect(await embeddedImageSizes(out)).toContainEqual([1000, 500]);
    const tall = await stamp(await plainPdf(1), png(await makeImage("png", 300, 1500, [0, 0, 255])));
    expect(await embeddedImageSizes(tall.out)).toContainEqual([200, 1000]);
    const small = await stamp(await plainPdf(1), png(await makeImage("png", 640, 480, [0, 0, 255])));
    expect(await embeddedImageSizes(small.out)).toContainEqual([640, 480]);
  });

  it("the image is embedded once however many pages", async () => {
    const { out, body } = await stamp(await plainPdf(12), png(await makeImage("png", 200, 100, [0, 0, 255])));
    expect((body.meta as { pages_watermarked: number }).pages_watermarked).toBe(12);
    expect((await embeddedImageSizes(out)).filter(([w, h]) => w === 200 && h === 100).length).toBe(2);
    for (const i of [0, 11]) expect((await inkOn(out, i, bluish)).count).toBeGreaterThan(500);
  });
});

describe("image watermark: size and placement", () => {
  it("scale 1.0 is 30% of the page width; 0.5 and 2.0 follow", async () => {
    const image = png(await makeImage("png", 400, 200, [0, 0, 255]));
    for (const [scale, share] of [
      ["1", 0.3],
      ["0.5", 0.15],
      ["2", 0.6],
    ] as const) {
      const { out } = await stamp(await plainPdf(1), image, { scale, opacity: "1" });
      const ink = await inkOn(out, 0, bluish);
      expect((ink.box[2] - ink.box[0]) / 595).toBeCloseTo(share, 1);
      expect((ink.box[3] - ink.box[1]) / (ink.box[2] - ink.box[0])).toBeCloseTo(0.5, 1);
    }
  });

  it("positions land in the visible corners of rotated and cropped pages", async () => {
    const image = png(await makeImage("png", 200, 100, [0, 0, 255]));
    const margin = 60;
    for (const spec of [{}, { rotate: 90 as const }, { rotate: 270 as const, crop: [40, 60, 500, 600] as [number, number, number, number] }]) {
      const pdf = await fixturePdf([spec]);
      const tl = await inkOn((await stamp(pdf, image, { position: "top_left", opacity: "1" })).out, 0, bluish);
      expect(tl.box[0] < margin && tl.box[1] < margin, JSON.stringify(tl)).toBe(true);
      const br = await inkOn((await stamp(pdf, image, { position: "bottom-right", opacity: "1" })).out, 0, bluish);
      expect(br.box[2] > br.page[0] - margin && br.box[3] > br.page[1] - margin, JSON.stringify(br)).toBe(true);
      const bc = await inkOn((await stamp(pdf, image, { position: "BOTTOM_CENTER", opacity: "1" })).out, 0, bluish);
      expect(Math.abs(bc.centroid[0] - bc.page[0] / 2)).toBeLessThan(3);
      // The image stays upright as the reader sees it: wider than tall.
      expect(bc.box[2] - bc.box[0]).toBeGreaterThan(1.8 * (bc.box[3] - bc.box[1]));
    }
  });

  it("tile makes a staggered grid over the whole page, each copy 15% of the width", async () => {
    const { out } = await stamp(await plainPdf(1), png(await makeImage("png", 200, 100, [0, 0, 255])), { tile: "true", opacity: "1" });
    const blobs = (await blobsOn(out, 0, bluish)).filter((b) => !b.edge);
    expect(blobs.length).toBeGreaterThanOrEqual(8);
    for (const b of blobs) expect(b.w / 595).toBeCloseTo(0.15, 1);
    const rows = [...new Set(blobs.map((b) => Math.round(b.cy / 10)))].sort((a, b) => a - b);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const xsOf = (row: number) => blobs.filter((b) => Math.round(b.cy / 10) === row).map((b) => b.cx);
    for (let r = 0; r + 1 < rows.length; r++) {
      // Staggered: no copy sits straight above a copy of the next row.
      for (const x of xsOf(rows[r])) for (const y of xsOf(rows[r + 1])) expect(Math.abs(x - y)).toBeGreaterThan(30);
    }
    const ink = await inkOn(out, 0, bluish);
    expect(ink.box[0]).toBeLessThan(60);
    expect(ink.box[2]).toBeGreaterThan(535);
    expect(ink.box[1]).toBeLessThan(80);
    expect(ink.box[3]).toBeGreaterThan(760);
  });
});

describe("image watermark: errors", () => {
  // The first two come from the corpus and skip without it.
  const badImages: [string, () => Promise<File>, boolean?][] = [
    ["a GIF", async () => file(await corpusFile("images/libvips/cogs.gif"), "cogs.png", "image/png"), true],
    ["a BMP", async () => file(await corpusFile("images/libjpeg-turbo/vgl_6434_0018a.bmp"), "x.jpg", "image/jpeg"), true],
    ["text renamed .png", async () => png(new TextEncoder().encode("not an image at all"))],
    ["a truncated PNG", async () => png((await makeImage("png", 300, 300, [0, 0, 255])).slice(0, 120))],
    ["an empty file", async () => png(new Uint8Array())],
    ["a PNG header claiming 20000 x 20000 pixels", async () => png(pngHeaderOnly(20000, 20000))],
    // Under the general 100 MP limit, but a 20 MP watermark would be an 80 MB pixmap.
    ["a PNG header claiming 5000 x 4000 pixels", async () => png(pngHeaderOnly(5000, 4000))],
  ];
  for (const [label, image, fromCorpus] of badImages) {
    (fromCorpus ? itWithCorpus : it)(`422 invalid_image for ${label}`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf"), watermark: await image() });
      expect(res.status).toBe(422);
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
      expect((await problem(res)).code).toBe("invalid_image");
    });
  }

  const invalid: [string, Fields][] = [
    ["opacity", { opacity: "1.5" }],
    ["opacity", { opacity: "-1" }],
    ["scale", { scale: "0.05" }],
    ["scale", { scale: "2.5" }],
    ["position", { position: "left" }],
  ];
  for (const [field, fields] of invalid) {
    it(`422 for ${field} = ${Object.values(fields)[0]}`, async () => {
      const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf"), watermark: png(await makeImage("png", 10, 10, [0, 0, 255])), ...fields });
      expect(res.status).toBe(422);
      const p = await problem(res);
      expect(p.code).toBe("validation_failed");
      expect(p.errors?.map((e) => e.field)).toContain(field);
    });
  }

  it("422 when the watermark part is missing", async () => {
    const res = await postForm(PATH, { file: file(await plainPdf(1), "a.pdf") });
    expect(res.status).toBe(422);
    expect((await problem(res)).errors?.map((e) => e.field)).toContain("watermark");
  });

  it("422 password_protected, 422 unreadable_document, 415 for a non-PDF name", async () => {
    const mark = png(await makeImage("png", 10, 10, [0, 0, 255]));
    const locked = await postForm(PATH, { file: file(await encryptedPdf(), "a.pdf"), watermark: mark });
    expect(locked.status).toBe(422);
    expect((await problem(locked)).code).toBe("password_protected");
    const broken = await postForm(PATH, { file: file(corruptPdf(), "a.pdf"), watermark: mark });
    expect(broken.status).toBe(422);
    expect((await problem(broken)).code).toBe("unreadable_document");
    const named = await postForm(PATH, { file: file(await plainPdf(1), "a.docx"), watermark: mark });
    expect(named.status).toBe(415);
  });
});

describe("image watermark: credits", () => {
  it("charges 10 with a key, refunds failures, 0 anonymously", async () => {
    const mark = await makeImage("png", 50, 50, [0, 0, 255]);
    await expectMetering(
      PATH,
      async () => ({ file: file(await plainPdf(1), "a.pdf"), watermark: png(mark) }),
      async () => ({ file: file(await plainPdf(1), "a.pdf"), watermark: png(new TextEncoder().encode("nope")) }),
      10,
      "free",
    );
  });
});
