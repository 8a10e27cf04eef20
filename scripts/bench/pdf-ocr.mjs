// OCR to searchable PDF (docs/reference/pdf-ocr.md): text pages of the corpus
// rendered to 300-dpi gray scans in Node (MuPDF.js), wrapped in image-only
// PDFs, sent through POST /api/v1/pdf/ocr; beside `tesseract <png> out pdf`
// (the CLI's own searchable PDF) on the same pixels when it is installed.
// Word accuracy: the share of the page's own text-layer words found by
// `pdftotext` in each output (lower-cased, edge punctuation trimmed).
// `npm run bench -- pdf-ocr` runs this section alone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { accuracy, renderPage, scanPdf } from "./scan-pages.mjs";

export const title = "OCR to searchable PDF";

const PATH = "/api/v1/pdf/ocr";
/** English corpus text PDFs and how many of their first pages to scan. */
const FILES = [
  ["markdown/docling/multi_page.pdf", 2],
  ["markdown/docling/redp5110_sampled.pdf", 2],
  ["markdown/docling/code_and_formula.pdf", 1],
];

const words = (text) =>
  text
    .split(/\s+/)
    .map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);

const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
const pdftotext = (file) => (has("pdftotext") ? spawnSync("pdftotext", [file, "-"], { encoding: "utf8" }).stdout : null);

export async function run(ctx) {
  const mupdf = await import("mupdf");
  for (const [rel, pages] of FILES) {
    const path = join(ctx.corpus, rel);
    if (!existsSync(path)) {
      ctx.row({ tool: "pdf-ocr", case: rel, note: "not in the corpus" });
      continue;
    }
    const bytes = readFileSync(path);
    for (let i = 0; i < pages; i++) {
      const page = renderPage(mupdf, bytes, i);
      const scan = await scanPdf(page.png, page.width, page.height);
      const name = `${rel.split("/").pop()} p${i + 1}`;
      const fd = new FormData();
      fd.append("file", new File([scan], "scan.pdf"));
      const { result: res, peak_mb } = await ctx.peak(() => ctx.post(PATH, fd));
      if (res.status !== 200) {
        ctx.row({ tool: "pdf-ocr", case: name, note: `status ${res.status} ${res.json.code ?? res.json.raw ?? ""}` });
        continue;
      }
      const out = join(ctx.tmp, "pdf-ocr-out.pdf");
      writeFileSync(out, new Uint8Array(await fetch(res.json.file_url).then((r) => r.arrayBuffer())));
      const truth = words(page.text);
      const ours = pdftotext(out);
      const png = join(ctx.tmp, "pdf-ocr-page.png");
      writeFileSync(png, page.png);
      const peer = ctx.native("tesseract", [png, join(ctx.tmp, "pdf-ocr-peer"), "pdf"], { runs: 1 });
      const peerOk = peer && Number.isFinite(peer.median_ms);
      const peerText = peerOk ? pdftotext(join(ctx.tmp, "pdf-ocr-peer.pdf")) : null;
      const acc = ours === null ? "pdftotext missing" : `accuracy ${accuracy(truth, words(ours)).toFixed(3)}`;
      const peerAcc = peerText === null ? "" : ` (CLI ${accuracy(truth, words(peerText)).toFixed(3)})`;
      ctx.row({
        tool: "pdf-ocr",
        case: name,
        ms: Math.round(res.ms),
        bytes: readFileSync(out).byteLength,
        peak_mb,
        peer: peer ? "tesseract out pdf" : undefined,
        peer_ms: peer?.median_ms,
        peer_bytes: peerOk ? readFileSync(join(ctx.tmp, "pdf-ocr-peer.pdf")).byteLength : undefined,
        peer_peak_mb: peer ? +(peer.peak_kb / 1024).toFixed(1) : undefined,
        note: `${truth.length} words, ${res.json.word_count} written, conf ${res.json.mean_confidence}, ${acc}${peerAcc}${peer ? (peerOk ? "" : `; tesseract failed: ${peer.error}`) : "; tesseract not installed"}`,
      });
    }
  }
}
