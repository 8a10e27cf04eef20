// OCR figures (docs/tools/ocr.md, docs/benchmarks.md "OCR"): the text PDFs
// of the corpus rendered to 300-dpi gray scans in Node (MuPDF.js), sent
// through PDF to Markdown, and the words read compared with the PDF's own
// text layer; beside the `tesseract` CLI on the same pixels when installed.
// Word accuracy is the share of the text layer's words (a multiset,
// lower-cased, edge punctuation trimmed) found in the output.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { accuracy, renderPage, scanPdf } from "./scan-pages.mjs";

export const title = "OCR (scanned pages through PDF to Markdown)";

/** English corpus text PDFs and how many of their first pages to scan (normal_4pages.pdf is Korean: English model only). */
const FILES = [
  ["markdown/docling/multi_page.pdf", 2],
  ["markdown/docling/2305.03393v1-pg9.pdf", 1],
  ["markdown/docling/redp5110_sampled.pdf", 2],
  ["markdown/docling/code_and_formula.pdf", 1],
];

const words = (text) =>
  text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/^#+\s|^\|?\s*-{3,}.*$|[|*_`]/gm, " ")
    .split(/\s+/)
    .map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);

export async function run(ctx) {
  const mupdf = await import("mupdf");
  const totals = { pages: 0, ms: 0, truth: 0, hit: 0, peerHit: 0, peerMs: 0, peerPages: 0 };
  // OCR_BENCH_ONLY=redp5110 measures one file.
  for (const [rel, pages] of FILES.filter(([rel]) => rel.includes(process.env.OCR_BENCH_ONLY ?? ""))) {
    const path = join(ctx.corpus, rel);
    if (!existsSync(path)) {
      ctx.row({ tool: "ocr", case: rel, note: "not in the corpus" });
      continue;
    }
    const bytes = readFileSync(path);
    for (let i = 0; i < pages; i++) {
      const page = renderPage(mupdf, bytes, i);
      const scan = await scanPdf(page.png, page.width, page.height);
      const fd = new FormData();
      fd.append("file", new File([scan], "scan.pdf"));
      const { result: res, peak_mb } = await ctx.peak(() => ctx.post("/api/v1/pdf/to-markdown", fd));
      const name = `${rel.split("/").pop()} p${i + 1}`;
      if (res.status !== 200) {
        ctx.row({ tool: "ocr", case: name, note: `status ${res.status} ${res.json.code ?? res.json.raw ?? ""}` });
        continue;
      }
      const truth = words(page.text);
      const acc = accuracy(truth, words(res.json.markdown));
      totals.pages++;
      totals.ms += res.ms;
      totals.truth += truth.length;
      totals.hit += acc * truth.length;
      let peer;
      if (spawnSync("sh", ["-c", "command -v tesseract"]).status === 0) {
        const png = join(ctx.tmp, "ocr-page.png");
        writeFileSync(png, page.png);
        const t = performance.now();
        const r = spawnSync("tesseract", [png, "stdout"], { encoding: "utf8" });
        const ms = performance.now() - t;
        if (r.status === 0) {
          peer = { ms: Math.round(ms), acc: accuracy(truth, words(r.stdout)) };
          totals.peerHit += peer.acc * truth.length;
          totals.peerMs += ms;
          totals.peerPages++;
        }
      }
      ctx.row({
        tool: "ocr",
        case: name,
        ms: Math.round(res.ms),
        peak_mb,
        note: `${truth.length} words, accuracy ${acc.toFixed(3)}, engine ${res.json.engine}`,
        peer: peer ? "tesseract CLI" : undefined,
        peer_ms: peer?.ms,
        peer_bytes: undefined,
        ...(peer ? { note: `${truth.length} words, accuracy ${acc.toFixed(3)} (CLI ${peer.acc.toFixed(3)}), engine ${res.json.engine}` } : {}),
      });
    }
  }
  const runtime = await ctx.runtime();
  const mb = (b) => ((b ?? 0) / 1048576).toFixed(1);
  ctx.row({
    tool: "ocr",
    case: "all pages",
    ms: totals.pages ? Math.round(totals.ms / totals.pages) : undefined,
    note:
      `${totals.pages} pages, ${(totals.pages / (totals.ms / 1000)).toFixed(2)} pages/s, word accuracy ${(totals.hit / Math.max(1, totals.truth)).toFixed(3)}; ` +
      `OCR heap now ${mb(runtime.wasm_heaps?.ocr)} MB, isolate WASM peak ${mb(runtime.wasm_peak)} MB (ocr ${mb(runtime.wasm_peak_heaps?.ocr)} MB, mupdf ${mb(runtime.wasm_peak_heaps?.mupdf)} MB)` +
      (totals.peerPages
        ? `; tesseract CLI ${(totals.peerPages / (totals.peerMs / 1000)).toFixed(2)} pages/s, accuracy ${(totals.peerHit / Math.max(1, totals.truth)).toFixed(3)}`
        : "; tesseract CLI not installed"),
  });
}
