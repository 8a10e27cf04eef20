// Issue #2 figures: merge (2 x 200 pages, 50 x 4 pages) and split (500 pages
// into single pages), end to end over HTTP, beside qpdf on the same files.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const title = "Platform: merge and split";

async function makePdf(pages, label) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 30; line++) {
      page.drawText(`${label} page ${i} line ${line}: the quick brown fox jumps over the lazy dog`, { x: 40, y: 800 - line * 24, size: 10, font });
    }
  }
  return doc.save();
}

function form(files) {
  const fd = new FormData();
  for (const [name, bytes] of files) fd.append("files", new File([bytes], name, { type: "application/pdf" }));
  return fd;
}

export async function run(ctx) {
  const big = [await makePdf(200, "A"), await makePdf(200, "B")];
  const small = [];
  for (let i = 0; i < 50; i++) small.push(await makePdf(4, `S${i}`));
  const five = await makePdf(500, "P");
  const paths = (list, tag) =>
    list.map((b, i) => {
      const p = join(ctx.tmp, `${tag}${i}.pdf`);
      writeFileSync(p, b);
      return p;
    });
  const bigPaths = paths(big, "big");
  const smallPaths = paths(small, "small");
  const [fivePath] = paths([five], "five");

  const cases = [
    { case: "merge 2 x 200 pages", files: big.map((b, i) => [`big${i}.pdf`, b]), peer: ["--empty", "--pages", ...bigPaths, "--", join(ctx.tmp, "m1.pdf")] },
    {
      case: "merge 50 x 4 pages",
      files: small.map((b, i) => [`small${i}.pdf`, b]),
      peer: ["--empty", "--pages", ...smallPaths, "--", join(ctx.tmp, "m2.pdf")],
    },
  ];
  for (const c of cases) {
    let last;
    const { result: timing, peak_mb } = await ctx.peak(() =>
      ctx.time(async () => {
        last = await ctx.post("/api/v1/pdf/merge/merge", form(c.files));
        if (last.status !== 200) throw new Error(JSON.stringify(last.json));
      }, 5),
    );
    const q = ctx.native("qpdf", c.peer, { runs: 5 });
    ctx.row({
      tool: "merge",
      case: c.case,
      ms: timing.median_ms,
      bytes: last.json.size,
      peak_mb,
      peer: q ? "qpdf" : undefined,
      peer_ms: q?.median_ms,
      peer_bytes: q ? readFileSync(c.peer.at(-1)).length : undefined,
      peer_peak_mb: q ? +(q.peak_kb / 1024).toFixed(1) : undefined,
      note: q ? `${(timing.median_ms / q.median_ms).toFixed(1)}x qpdf` : "qpdf not installed",
    });
  }

  const fd = () => {
    const f = new FormData();
    f.append("file", new File([five], "five.pdf", { type: "application/pdf" }));
    f.append("split_mode", "pages");
    f.append("split_config", "{}");
    return f;
  };
  // 500 single pages exceed the 200-part limit, so the Worker splits the
  // 500-page file by page_count 3 (167 parts) and also by page_range over 200 pages.
  const splitCases = [
    { case: "split 500 pages, 3 per file", mode: "page_count", config: { pages_per_file: 3 } },
    { case: "split 200 of 500 pages singly", mode: "page_range", config: { ranges: Array.from({ length: 200 }, (_, i) => [i + 1, i + 1]) } },
  ];
  for (const s of splitCases) {
    let last;
    const { result: timing, peak_mb } = await ctx.peak(() =>
      ctx.time(async () => {
        const f = new FormData();
        f.append("file", new File([five], "five.pdf", { type: "application/pdf" }));
        f.append("split_mode", s.mode);
        f.append("split_config", JSON.stringify(s.config));
        last = await ctx.post("/api/v1/pdf/split/split", f);
        if (last.status !== 200) throw new Error(JSON.stringify(last.json));
      }, 3),
    );
    ctx.row({ tool: "split", case: s.case, ms: timing.median_ms, bytes: last.json.size, peak_mb, note: last.json.message });
  }
  const over = await ctx.post("/api/v1/pdf/split/split", fd());
  const q = ctx.native("qpdf", ["--split-pages", fivePath, join(ctx.tmp, "part-%d.pdf")], { runs: 3 });
  ctx.row({
    tool: "split",
    case: "500 pages into single pages",
    ms: Math.round(over.ms),
    note: `Worker answers ${over.status} ${over.json.code ?? ""} (at most 200 parts: docs/reference/pdf-merge-split.md)`,
    peer: q ? "qpdf --split-pages" : undefined,
    peer_ms: q?.median_ms,
    peer_peak_mb: q ? +(q.peak_kb / 1024).toFixed(1) : undefined,
  });
}
