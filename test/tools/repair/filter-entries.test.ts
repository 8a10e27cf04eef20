import { describe, expect, it } from "vitest";
import { download, pdfFile, postForm } from "../../support/http";
import { inkOn, mupdfOpens, mupdfTexts } from "../../support/mupdf";
import { handPdf, streamObject } from "./hand-pdf";
import { qpdfCheck } from "./qpdf-oracle";
import type { Answer } from "../../support/answers";

// Corrupt CCITT (fax) image streams. qpdf does not decode CCITT, so junk fax
// data passes its check; what fails it is a /Filter that is not a name or
// an array of names, which MuPDF's recovery keeps as it found it (and qpdf
// then will not linearize the file either). Repair mends the entry where it
// names standard filters and replaces the image where it does not; qpdf
// --check on the output is the independent reader.

const REPAIR = "/api/v1/pdf/repair";
const FONT = "/Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>";
const FAX_IMAGE = "/Type/XObject/Subtype/Image/Width 100/Height 80/ColorSpace/DeviceGray/BitsPerComponent 1";
const FAX_PARMS = "/DecodeParms<</K -1/Columns 100/Rows 80>>";
const JUNK = "\x00\x01\xff\xfe not fax data \x13\x37".repeat(4);

/** One page: a caption and a 100x80 pt fax image at (20, 20) whose stream has `filter` and junk data. */
function faxPage(caption: string, filter: string): Uint8Array {
  const content = `q 100 0 0 80 20 20 cm /Im1 Do Q BT /F1 18 Tf 20 160 Td (${caption}) Tj ET`;
  return handPdf([
    "<</Type/Catalog/Pages 2 0 R>>",
    "<</Type/Pages/Kids[3 0 R]/Count 1>>",
    `<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<<${FONT}/XObject<</Im1 5 0 R>>>>>>`,
    streamObject("", content),
    streamObject(`${FAX_IMAGE}${filter}`, JUNK),
  ]);
}

type RepairBody = Answer<"repair-pdf">;

async function repair(bytes: Uint8Array) {
  const res = await postForm(REPAIR, { file: pdfFile(bytes, "fax.pdf") });
  const body = (await res.json()) as RepairBody;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { body, out: await download(body.url) };
}

const grey = (r: number, g: number, b: number) => Math.abs(r - 128) < 8 && Math.abs(g - 128) < 8 && Math.abs(b - 128) < 8;

describe("Repair PDF: corrupt CCITT image streams", () => {
  it("junk fax data under a sound /Filter: the page, its text and the image stay, qpdf --check passes", async () => {
    const { body, out } = await repair(faxPage("Fax kept", `/Filter/CCITTFaxDecode${FAX_PARMS}`));
    expect(body).toMatchObject({ pages: 1, linearized: true, images_replaced: 0 });
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
    expect((await mupdfTexts(out))[0].trim()).toBe("Fax kept");
  });

  it("a /Filter given as a string is mended to the filter's name: qpdf --check passes and the file is linearized", async () => {
    const input = faxPage("Fax string filter", `/Filter(CCITTFaxDecode)${FAX_PARMS}`);
    expect((await qpdfCheck(input)).messages.join("\n")).toContain("stream filter type is not name or array"); // damaged as qpdf sees it
    const { body, out } = await repair(input);
    expect(body).toMatchObject({ pages: 1, damage_found: true, linearized: true, images_replaced: 0 });
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
    expect(await mupdfOpens(out)).toEqual({ pages: 1, repaired: false });
    expect((await mupdfTexts(out))[0].trim()).toBe("Fax string filter");
  });

  it("a /Filter array with an entry that names nothing: the image becomes the grey placeholder in its box", async () => {
    const input = faxPage("Fax unreadable filter", `/Filter[/CCITTFaxDecode 7]${FAX_PARMS}`);
    expect((await qpdfCheck(input)).code).not.toBe(0);
    const { body, out } = await repair(input);
    expect(body).toMatchObject({ pages: 1, damage_found: true, linearized: true, images_replaced: 1 });
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
    expect((await mupdfTexts(out))[0].trim()).toBe("Fax unreadable filter");
    const box = await inkOn(out, 0, grey);
    expect(box.count).toBeGreaterThan(100 * 80 * 0.9);
    expect(box.box[0]).toBeCloseTo(20, 0); // x 20..120, y 100..180 from the top
    expect(box.box[3]).toBeCloseTo(180, 0);
  });

  it("the same mend reaches any stream: a content stream whose (FlateDecode) is a string keeps its text", async () => {
    // The content stream really is Flate-compressed, so the text reads only once the filter is a name.
    const content = "BT /F1 18 Tf 20 100 Td (Compressed caption) Tj ET";
    const flated = new Uint8Array(await new Response(new Blob([content]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
    const input = handPdf([
      "<</Type/Catalog/Pages 2 0 R>>",
      "<</Type/Pages/Kids[3 0 R]/Count 1>>",
      `<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<<${FONT}>>>>`,
      streamObject("/Filter(FlateDecode)", String.fromCharCode(...flated)),
    ]);
    const { body, out } = await repair(input);
    expect(body).toMatchObject({ pages: 1, damage_found: true, linearized: true });
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
    expect((await mupdfTexts(out))[0].trim()).toBe("Compressed caption");
  });
});
