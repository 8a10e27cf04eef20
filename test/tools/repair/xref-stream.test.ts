import { describe, expect, it } from "vitest";
import { download, pdfFile, postForm } from "../../support/http";
import { mupdfOpens, mupdfTexts } from "../../support/mupdf";
import { streamObject } from "./hand-pdf";
import { qpdfCheck } from "./qpdf-oracle";

// Cross-reference streams without an entry for themselves, in the forms
// writers produce beyond recovery.test.ts's plain one: Flate-compressed with
// the PNG Up predictor, and as the incremental update of a file whose first
// revision has a classic table. The repaired file must pass qpdf --check and
// keep the newest revision's text.

const REPAIR = "/api/v1/pdf/repair";
const FONT = "/Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>";
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const be = (n: number, width: number) => Array.from({ length: width }, (_, i) => Math.floor(n / 256 ** (width - 1 - i)) % 256);
/** One xref stream row, W [1 4 2]. */
const row = (type: number, field2: number, field3: number) => [...be(type, 1), ...be(field2, 4), ...be(field3, 2)];
const text = (t: string) => `BT /F1 24 Tf 20 100 Td (${t}) Tj ET`;
const onePage = (content: string) => [
  "<</Type/Catalog/Pages 2 0 R>>",
  "<</Type/Pages/Kids[3 0 R]/Count 1>>",
  `<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<<${FONT}>>>>`,
  streamObject("", content),
];

function objects(bodies: string[]): { out: string; offsets: number[] } {
  let out = "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  return { out, offsets };
}

async function deflate(bytes: number[]): Promise<string> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream("deflate"));
  return String.fromCharCode(...new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The rows PNG-Up-predicted (each row a 2 tag, then each byte minus the byte above) and deflated. */
async function predicted(rows: number[][]): Promise<string> {
  const data: number[] = [];
  rows.forEach((r, i) => data.push(2, ...r.map((b, j) => (b - (i > 0 ? rows[i - 1][j] : 0) + 256) % 256)));
  return deflate(data);
}

async function repair(bytes: Uint8Array) {
  const res = await postForm(REPAIR, { file: pdfFile(bytes, "xref.pdf") });
  const body = (await res.json()) as { url: string; pages: number; linearized: boolean };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { body, out: await download(body.url) };
}

describe("Repair PDF: cross-reference streams that lack their own entry", () => {
  it("Flate-compressed with the PNG Up predictor: recovered with its text, qpdf --check passes", async () => {
    const { out: head, offsets } = objects(onePage(text("Predicted xref")));
    const start = head.length;
    const rows = [row(0, 0, 65535), ...offsets.map((o) => row(1, o, 0))]; // objects 0-4; 5, the stream, is missing
    const dict = "/Type/XRef/Size 5/W[1 4 2]/Index[0 5]/Root 1 0 R/Filter/FlateDecode/DecodeParms<</Columns 7/Predictor 12>>";
    const file = `${head}5 0 obj\n${streamObject(dict, await predicted(rows))}\nendobj\nstartxref\n${start}\n%%EOF\n`;
    const { body, out } = await repair(latin1(file));
    expect(body).toMatchObject({ pages: 1, linearized: true });
    expect(await mupdfOpens(out)).toEqual({ pages: 1, repaired: false });
    expect((await mupdfTexts(out))[0].trim()).toBe("Predicted xref");
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  });

  it("as an incremental update over a classic table: the updated page text is the one kept", async () => {
    const { out: first, offsets } = objects(onePage(text("Old text")));
    const table = first.length;
    let file = `${first}xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
    file += `trailer\n<</Size 5/Root 1 0 R>>\nstartxref\n${table}\n%%EOF\n`;
    const updated = file.length;
    file += `4 0 obj\n${streamObject("", text("Updated text"))}\nendobj\n`;
    const start = file.length;
    const rows = String.fromCharCode(...row(1, updated, 0)); // only object 4; the stream (5) has no entry
    file += `5 0 obj\n${streamObject(`/Type/XRef/Size 5/W[1 4 2]/Index[4 1]/Prev ${table}/Root 1 0 R`, rows)}\nendobj\nstartxref\n${start}\n%%EOF\n`;
    const { body, out } = await repair(latin1(file));
    expect(body).toMatchObject({ pages: 1, linearized: true });
    expect((await mupdfTexts(out))[0].trim()).toBe("Updated text");
    expect(await qpdfCheck(out)).toMatchObject({ code: 0 });
  });
});
