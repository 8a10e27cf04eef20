// Smoke run through the real bundled `wrangler dev`: merge and split over
// HTTP, outputs downloaded and checked, then the server is stopped by PID.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { unzipSync } from "fflate";
import { startServerWithKey } from "./server.mjs";

let srv;
before(async () => {
  srv = await startServerWithKey({ credits: 1000 });
});
after(async () => {
  await srv?.stop();
});

async function makePdf(pages, label) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 300]).drawText(`${label} ${i}`, { x: 20, y: 250, size: 14, font });
  return doc.save();
}

function pdfPart(bytes, name) {
  return new File([bytes], name, { type: "application/pdf" });
}

test("merge through wrangler dev returns a downloadable merged PDF and bills 10 credits", async () => {
  const fd = new FormData();
  fd.append("files", pdfPart(await makePdf(2, "A"), "a.pdf"));
  fd.append("files", pdfPart(await makePdf(3, "B"), "b.pdf"));
  const res = await fetch(`${srv.base}/api/v1/pdf/merge/merge`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  assert.equal(body.pages, 5);
  const file = await fetch(body.output_url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("Content-Type"), "application/pdf");
  const merged = await PDFDocument.load(new Uint8Array(await file.arrayBuffer()));
  assert.equal(merged.getPageCount(), 5);
});

test("split through wrangler dev returns a ZIP with one PDF per range", async () => {
  const fd = new FormData();
  fd.append("file", pdfPart(await makePdf(6, "S"), "six.pdf"));
  fd.append("split_mode", "page_range");
  fd.append(
    "split_config",
    JSON.stringify({
      ranges: [
        [1, 2],
        [3, 6],
      ],
    }),
  );
  const res = await fetch(`${srv.base}/api/v1/pdf/split/split`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.output_url, /six_split\.zip$/);
  const zip = unzipSync(new Uint8Array(await (await fetch(body.output_url)).arrayBuffer()));
  const names = Object.keys(zip).sort();
  assert.deepEqual(names, ["six_pages_1-2.pdf", "six_pages_3-6.pdf"]);
  assert.equal((await PDFDocument.load(zip["six_pages_3-6.pdf"])).getPageCount(), 4);
});

test("bad input over real HTTP is problem+json with a stable code", async () => {
  const fd = new FormData();
  fd.append("files", pdfPart(await makePdf(1, "X"), "only.pdf"));
  const res = await fetch(`${srv.base}/api/v1/pdf/merge/merge`, { method: "POST", body: fd });
  assert.equal(res.status, 400);
  assert.match(res.headers.get("Content-Type"), /application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.code, "too_few_files");
  assert.equal(res.headers.get("X-Credits-Charged"), "0");
});
