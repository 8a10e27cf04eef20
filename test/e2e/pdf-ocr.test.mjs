// OCR to searchable PDF through the bundled `wrangler dev` (both Workers, as
// deployed), judged by poppler: `pdftotext` of the output finds the words of
// the scanned page and `pdftotext -bbox` puts them where the source printed
// them. The scan is made as a scanner would: the text page rasterised at
// 300 dpi by pdftoppm and wrapped in a PDF as a picture, no text layer.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { seedOcrModels } from "../../scripts/ocr-models-seed.mjs";
import { matchWords } from "../support/word-match.mjs";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-ocr-"));
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

/** pdftotext -bbox: each word of page 1 with its box in points (top-left origin). */
function bboxWords(file) {
  const html = run("pdftotext", ["-bbox", "-f", "1", "-l", "1", file, "-"]);
  const out = [];
  for (const m of html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    out.push({
      text: m[5]
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
      box: m.slice(1, 5).map(Number),
    });
  }
  return out;
}

async function textPdf(lines) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((l, i) => page.drawText(l, { x: 56, y: 760 - i * 22, size: 12, font }));
  return doc.save();
}

async function scanOf(source, name) {
  const src = join(tmp, `${name}.pdf`);
  writeFileSync(src, source);
  run("pdftoppm", ["-r", "300", "-gray", "-png", "-singlefile", src, join(tmp, `${name}-scan`)]);
  const scan = await PDFDocument.create();
  const picture = await scan.embedPng(readFileSync(join(tmp, `${name}-scan.png`)));
  scan.addPage([595, 842]).drawImage(picture, { x: 0, y: 0, width: 595, height: 842 });
  return { src, scan: await scan.save() };
}

async function ocr(scan, fields = {}) {
  const fd = new FormData();
  fd.append("file", new File([scan], "scan.pdf", { type: "application/pdf" }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}/api/v1/pdf/ocr`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const out = join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(out, new Uint8Array(await (await fetch(body.file_url)).arrayBuffer()));
  return { body, out };
}

/** Share of the source's words pdftotext finds in the output, and of those whose box overlaps the source word's. */
const compare = (src, out) => matchWords(bboxWords(src), bboxWords(out));

const ENGLISH = [
  "The quarterly survey of river levels was finished early this year.",
  "Every station along the valley reported higher water than in spring,",
  "and the engineers recommend that the northern gates open twice a week",
  "until the autumn rains have passed. A full table follows on page four.",
];

test("an English scan: pdftotext finds the words, -bbox puts them where they are printed", async (t) => {
  if (!requireTool(t, "pdftoppm") || !requireTool(t, "pdftotext")) return;
  const { src, scan } = await scanOf(await textPdf(ENGLISH), "english");
  writeFileSync(join(tmp, "scan-only.pdf"), scan);
  assert.equal(run("pdftotext", [join(tmp, "scan-only.pdf"), "-"]).trim(), "", "the scan has no text layer");
  const { body, out } = await ocr(scan);
  assert.deepEqual(body.pages_ocred, [1]);
  const r = compare(src, out);
  assert.ok(r.found >= 0.95, `found ${r.found}, missing ${r.missing.join(" ")}`);
  assert.ok(r.placed >= 0.95, `placed ${r.placed}`);
});

test("a German scan read with deu keeps ä ö ü ß", async (t) => {
  if (!requireTool(t, "pdftoppm") || !requireTool(t, "pdftotext")) return;
  const { src, scan } = await scanOf(
    await textPdf(["Die Größe der Übungsräume ärgert Jürgen seit Jahren sehr.", "Über die Straße öffnet der Bäcker früh, süße Brötchen gibt es täglich."]),
    "german",
  );
  const { body, out } = await ocr(scan, { languages: "deu" });
  assert.deepEqual(body.languages, ["deu"]);
  const r = compare(src, out);
  assert.ok(r.found >= 0.95, `found ${r.found}, missing ${r.missing.join(" ")}`);
  assert.match(run("pdftotext", [out, "-"]), /Größe.*Übungsräume/);
});

test("Spanish, a model kept in R2: seeded into wrangler dev's local bucket as a deploy seeds the real one, then read", async (t) => {
  if (!requireTool(t, "pdftoppm") || !requireTool(t, "pdftotext")) return;
  // The server's own state folder (server.mjs makes one per server), seeded as `npm run dev` users seed theirs.
  seedOcrModels({ where: "--local", persistTo: srv.state, quiet: true });
  const { src, scan } = await scanOf(
    await textPdf(["El niño pequeño comió una manzana en la montaña.", "Mañana habrá más canciones en la región, según el señor."]),
    "spanish",
  );
  const { body, out } = await ocr(scan, { languages: "spa" });
  assert.deepEqual(body.languages, ["spa"]);
  const r = compare(src, out);
  assert.ok(r.found >= 0.95, `found ${r.found}, missing ${r.missing.join(" ")}`);
  assert.match(run("pdftotext", [out, "-"]), /niño pequeño/);
});
