// PDF toolkit B figures: text and image watermarks, page numbers and PII
// redaction on a 10-page and a 200-page document, end to end over HTTP, with
// the workerd peak RSS and the MuPDF WASM heap; qpdf --overlay (stamping a
// ready-made one-page PDF on every page) as the native peer for stamping.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const title = "PDF toolkit B";

const PII = ["Card 4111 1111 1111 1111", "Mail jane.doe@example.org", "IBAN DE89 3704 0044 0532 0130 00", "Call +44 20 7946 0958", "SSN 078-05-1123"];

async function makePdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 30; line++) {
      const text = line % 6 === 0 ? `${PII[(i + line) % PII.length]} (page ${i})` : `Page ${i} line ${line}: the quick brown fox jumps over the lazy dog`;
      page.drawText(text, { x: 40, y: 800 - line * 24, size: 10, font });
    }
  }
  return doc.save();
}

async function stampPdf(text) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 150, y: 420, size: 36, font, opacity: 0.3 });
  return doc.save();
}

function png() {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 1600, 800], true);
  pix.clear(120);
  const bytes = pix.asPNG().slice();
  pix.destroy();
  return bytes;
}

const pdfFile = (bytes) => new File([bytes], "bench.pdf", { type: "application/pdf" });

function cases(image) {
  return [
    { tool: "watermark-text", case: "centre, Latin", path: "/api/v1/watermark/text", fields: { text: "CONFIDENTIAL" } },
    { tool: "watermark-text", case: "tiled, Latin + Arabic + CJK", path: "/api/v1/watermark/text", fields: { text: "Draft مسودة 草稿", tile: "true" } },
    { tool: "watermark-image", case: "centre, 1600 px PNG", path: "/api/v1/watermark/image", fields: { watermark: new File([image], "w.png") } },
    { tool: "watermark-image", case: "tiled, 1600 px PNG", path: "/api/v1/watermark/image", fields: { watermark: new File([image], "w.png"), tile: "true" } },
    { tool: "page-numbers", case: "Page {n} of {total}", path: "/api/v1/pdf/page-numbers", fields: { fmt: "Page {n} of {total}" } },
    { tool: "redact", case: "all nine types", path: "/api/v1/redact", fields: {} },
  ];
}

export async function run(ctx) {
  const docs = { 10: await makePdf(10), 200: await makePdf(200) };
  const image = png();
  const stampPath = join(ctx.tmp, "stamp.pdf");
  writeFileSync(stampPath, await stampPdf("CONFIDENTIAL"));
  for (const pages of [10, 200]) {
    const input = join(ctx.tmp, `pdf-b-${pages}.pdf`);
    writeFileSync(input, docs[pages]);
    for (const c of cases(image)) {
      let last;
      const { result: timing, peak_mb } = await ctx.peak(() =>
        ctx.time(
          async () => {
            const fd = new FormData();
            fd.append("file", pdfFile(docs[pages]));
            for (const [k, v] of Object.entries(c.fields)) fd.append(k, v);
            last = await ctx.post(c.path, fd);
            if (last.status !== 200) throw new Error(`${c.tool}: ${JSON.stringify(last.json)}`);
          },
          pages === 10 ? 5 : 3,
        ),
      );
      const out = await fetch(last.json.url);
      const bytes = (await out.arrayBuffer()).byteLength;
      const heaps = (await ctx.runtime()).wasm_heaps ?? {};
      const peer =
        c.tool === "watermark-text" && !c.fields.tile
          ? ctx.native("qpdf", [input, "--overlay", stampPath, "--repeat=1", "--", join(ctx.tmp, "overlay.pdf")], { runs: 3 })
          : null;
      const extra = c.tool === "redact" ? `, ${last.json.redactions_made} boxes, fully removed ${last.json.text_fully_removed}` : "";
      ctx.row({
        tool: c.tool,
        case: `${pages} pages, ${c.case}`,
        ms: timing.median_ms,
        bytes,
        peak_mb,
        peer: peer ? "qpdf --overlay" : undefined,
        peer_ms: peer?.median_ms,
        peer_bytes: peer ? readFileSync(join(ctx.tmp, "overlay.pdf")).length : undefined,
        peer_peak_mb: peer ? +(peer.peak_kb / 1024).toFixed(1) : undefined,
        note: `input ${docs[pages].length} B, mupdf heap ${((heaps.mupdf ?? 0) / 1048576).toFixed(1)} MB${extra}`,
      });
    }
  }
}
