// HTML to PDF, Convert document and PDF to Markdown through the real bundled
// `wrangler dev` (Browser Rendering emulated on the system Chromium), outputs
// read with native tools that cannot run inside workerd: pdfinfo for page
// sizes, pdftotext for text, unzip + XML for DOCX, the PNG header for sizes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { unzipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { ADMIN_TOKEN, corpusPath, requireChromium, requireCorpus, requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-documents-"));
before(async () => {
  srv = await startServerWithKey({ credits: 100_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

async function call(path, fields, urlField) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}${path}`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const out = await fetch(body[urlField]);
  assert.equal(out.status, 200);
  const file = join(tmp, `${Math.random().toString(36).slice(2)}.out`);
  writeFileSync(file, new Uint8Array(await out.arrayBuffer()));
  return { body, file };
}

async function textPdf(lines) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((l, i) => page.drawText(l, { x: 56, y: 780 - i * 18, size: 12, font }));
  return doc.save();
}

const words = (s) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

test("PDF to Markdown of a scan: the OCR Worker reads it through the service binding, in its own isolate", async (t) => {
  if (!requireTool(t, "pdftoppm")) return;
  // A scan made the way a scanner would: the text page rasterised at 200 dpi, wrapped in a PDF as a picture.
  const source = join(tmp, "letter.pdf");
  writeFileSync(source, await textPdf(["Quarterly letter to the members", "Sales grew in every region this quarter."]));
  run("pdftoppm", ["-r", "200", "-png", "-singlefile", source, join(tmp, "scan")]);
  const scan = await PDFDocument.create();
  const picture = await scan.embedPng(readFileSync(join(tmp, "scan.png")));
  scan.addPage([595, 842]).drawImage(picture, { x: 0, y: 0, width: 595, height: 842 });
  const fd = new FormData();
  fd.append("file", new File([await scan.save()], "scan.pdf"));
  const res = await fetch(`${srv.base}/api/v1/pdf/to-markdown`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.engine, "ocr");
  assert.match(body.markdown, /Quarterly letter to the members/);
  assert.match(body.markdown, /Sales grew in every region this quarter\./);
  const runtime = await (await fetch(`${srv.base}/admin/v1/runtime`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
  assert.ok(runtime.workers.ocr.wasm_heaps.ocr > 0, JSON.stringify(runtime.workers));
  assert.equal(runtime.wasm_heaps.ocr, undefined);
});

test("HTML to PDF: pdfinfo sees Letter landscape pages, pdftotext the text and the page-number footer", async (t) => {
  if (!requireChromium(t) || !requireTool(t, "pdfinfo") || !requireTool(t, "pdftotext")) return;
  const html = `<!doctype html><html><head><title>E2E</title></head><body>${"<p>Rendered by Browser Rendering in wrangler dev.</p>".repeat(60)}</body></html>`;
  const { body, file } = await call("/api/v1/html/to-pdf", { html, page_format: "Letter", landscape: "true", page_numbers: "true" }, "url");
  assert.equal(body.meta.source, "html");
  const info = run("pdfinfo", [file]);
  assert.match(info, /Page size:\s+792 x 612 pts/);
  const pages = Number(/Pages:\s+(\d+)/.exec(info)[1]);
  assert.ok(pages >= 2, info);
  const text = run("pdftotext", ["-layout", file, "-"]);
  assert.match(text, /Rendered by Browser Rendering in wrangler dev\./);
  assert.match(text, new RegExp(`Page 1 of ${pages}`));
});

test("DOCX to PDF: every line of the corpus file's expected text is in pdftotext's reading", async (t) => {
  if (!requireChromium(t) || !requireCorpus(t) || !requireTool(t, "pdftotext")) return;
  const dir = corpusPath("office/docx");
  const name = readdirSync(dir).find((f) => f === "unit_test_headers.docx");
  const docx = readFileSync(join(dir, name));
  const { body, file } = await call("/api/v1/conversion/single", { file: new File([docx], name), target_format: "pdf" }, "output_file_url");
  assert.equal(body.engine_used, "mammoth+chromium");
  const text = words(run("pdftotext", [file, "-"])).join(" ");
  const expected = readFileSync(join(dir, `${name}.expected.md`), "utf8")
    .split("\n")
    .map((l) => words(l).join(" "))
    .filter((l) => l !== "");
  for (const line of expected) assert.ok(text.includes(line), `missing: ${line}`);
});

test("PDF to DOCX: the document.xml holds the source's words as pdftotext reads them", async (t) => {
  if (!requireTool(t, "pdftotext")) return;
  const lines = ["Quarterly report", "Revenue grew by twelve percent over the quarter.", "Costs stayed flat while headcount rose slightly."];
  const pdf = await textPdf(lines);
  const src = join(tmp, "src.pdf");
  writeFileSync(src, pdf);
  const { body, file } = await call("/api/v1/conversion/single", { file: new File([pdf], "report.pdf"), target_format: "docx" }, "output_file_url");
  assert.equal(body.engine_used, "mupdf-docx");
  const xml = new TextDecoder().decode(unzipSync(readFileSync(file))["word/document.xml"]);
  const docxWords = words(xml.replace(/<[^>]+>/g, " "));
  const sourceWords = words(run("pdftotext", [src, "-"]));
  const found = sourceWords.filter((w) => docxWords.includes(w)).length;
  assert.ok(found / sourceWords.length >= 0.95, `${found} of ${sourceWords.length}`);
});

test("PDF to PNG: a one-page A4 PDF is one PNG of 1240 x 1754 (150 dpi)", async () => {
  const { file } = await call(
    "/api/v1/conversion/single",
    { file: new File([await textPdf(["One page"])], "one.pdf"), target_format: "png" },
    "output_file_url",
  );
  const png = readFileSync(file);
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1240, 1754]);
});

test("PDF to Markdown: the text of a PDF, with word_count counting the Markdown's words", async () => {
  const pdf = await textPdf(["Release notes", "", "The service now converts documents at the edge."]);
  const fd = new FormData();
  fd.append("file", new File([pdf], "notes.pdf"));
  const res = await fetch(`${srv.base}/api/v1/pdf/to-markdown`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.markdown, /The service now converts documents at the edge\./);
  assert.equal(body.pages, 1);
  assert.equal(body.word_count, words(body.markdown).length);
});
