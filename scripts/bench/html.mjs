// Issue #11 figures: HTML to PDF warm p50/p95 (1 and 20 pages) beside a cold
// `chromium --headless --print-to-pdf` on the same HTML; PDF to PNG of 10
// pages beside `mutool draw -r 150`; DOCX to PDF per corpus file. End to end
// over HTTP against the bundled Worker (Browser Rendering emulated by
// miniflare on the system Chromium, scripts/chrome-shim.mjs).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const title = "HTML, preview and document conversion";

const WARM_RUNS = 12;

function page(paragraphs) {
  const body = Array.from(
    { length: paragraphs },
    (_, i) => `<h2>Section ${i + 1}</h2><p>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(12)}</p>`,
  ).join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Bench</title><style>body{font-family:sans-serif;margin:0}h2{color:#246}</style></head><body>${body}</body></html>`;
}

const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]);
};

async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const p = doc.addPage([595, 842]);
    for (let line = 0; line < 40; line++)
      p.drawText(`Page ${i} line ${line}: the quick brown fox jumps over the lazy dog`, { x: 40, y: 800 - line * 18, size: 11, font });
  }
  return doc.save();
}

export async function run(ctx) {
  for (const [label, paragraphs] of [
    ["1 page", 2],
    ["20 pages", 80],
  ]) {
    const html = page(paragraphs);
    const send = () => {
      const fd = new FormData();
      fd.append("html", html);
      return ctx.post("/api/v1/html/to-pdf", fd);
    };
    const first = await send(); // warm-up: starts the browser session
    if (first.status !== 200) throw new Error(`html/to-pdf: ${first.status} ${JSON.stringify(first.json)}`);
    const times = [];
    let last = first;
    for (let i = 0; i < WARM_RUNS; i++) {
      last = await send();
      times.push(last.ms);
    }
    const htmlPath = join(ctx.tmp, `bench-${paragraphs}.html`);
    writeFileSync(htmlPath, html);
    const chromium = ["chromium", "chromium-browser"].find((c) => existsSync(`/usr/bin/${c}`));
    const peer = chromium
      ? ctx.native(
          chromium,
          [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            `--print-to-pdf=${join(ctx.tmp, "peer.pdf")}`,
            htmlPath,
          ],
          {
            runs: 3,
          },
        )
      : null;
    ctx.row({
      tool: "html to pdf",
      case: `${label} (${last.json.meta?.pages ?? "?"} pp), warm p50/p95`,
      ms: `${percentile(times, 50)}/${percentile(times, 95)}`,
      bytes: last.json.meta?.output_bytes,
      peer: peer ? "chromium --print-to-pdf (cold)" : undefined,
      peer_ms: peer?.median_ms,
    });
  }

  const ten = await textPdf(10);
  const pdfPath = join(ctx.tmp, "ten.pdf");
  writeFileSync(pdfPath, ten);
  const convert = (bytes, name, target) => {
    const fd = new FormData();
    fd.append("file", new File([bytes], name));
    fd.append("target_format", target);
    return ctx.post("/api/v1/conversion/single", fd);
  };
  let png;
  const timing = await ctx.time(async () => {
    png = await convert(ten, "ten.pdf", "png");
    if (png.status !== 200) throw new Error(`conversion: ${png.status} ${JSON.stringify(png.json)}`);
  }, 5);
  const mutool = ctx.native("mutool", ["draw", "-q", "-r", "150", "-o", join(ctx.tmp, "page-%d.png"), pdfPath], { runs: 5 });
  ctx.row({
    tool: "convert",
    case: "PDF -> PNG, 10 pages at 150 dpi",
    ms: timing.median_ms,
    peer: mutool ? "mutool draw -r 150" : undefined,
    peer_ms: mutool?.median_ms,
  });

  const docxDir = join(ctx.corpus, "office", "docx");
  if (!existsSync(docxDir)) {
    ctx.row({ tool: "convert", case: "DOCX -> PDF", note: `no corpus at ${docxDir}` });
    return;
  }
  for (const name of readdirSync(docxDir).filter((f) => f.endsWith(".docx"))) {
    const bytes = readFileSync(join(docxDir, name));
    let out;
    const t = await ctx.time(async () => {
      out = await convert(bytes, name, "pdf");
    }, 3);
    ctx.row({
      tool: "convert",
      case: `DOCX -> PDF ${name}`,
      ms: out.status === 200 ? t.median_ms : `status ${out.status}`,
      bytes: out.json.metadata?.file_size,
    });
  }
}
