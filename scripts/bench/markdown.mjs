// Issue #12 figures: PDF to Markdown and PDF to Excel per corpus file, end to
// end over HTTP, beside `pdftotext -layout` on the same files. Markdown is
// scored with the measures of PEERS.md against each *.expected.md, Excel by
// cell accuracy against Camelot's and Tabula's expected CSVs, with the same
// scorers the tests use (Node 22 loads them as TypeScript).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsv } from "../../test/support/csv.ts";
import { cellAccuracy } from "../../test/tools/pdf-to-xlsx/accuracy.ts";
import { readXlsx, textGrid } from "../../test/tools/pdf-to-xlsx/read-xlsx.ts";
import { measure } from "../../test/tools/pdf-to-markdown/quality.ts";
import { describe, measureFamilies, pdftotext } from "../../test/support/layout-corpus/measure.mjs";

export const title = "PDF to Markdown and PDF to Excel";

const post = (ctx, path, bytes, name) => {
  const fd = new FormData();
  fd.append("file", new File([bytes], name));
  return ctx.post(path, fd);
};

export async function run(ctx) {
  const mdDir = join(ctx.corpus, "markdown", "docling");
  if (!existsSync(mdDir)) {
    ctx.row({ tool: "pdf to markdown", note: `no corpus at ${mdDir}` });
    return;
  }
  for (const md of readdirSync(mdDir).filter((f) => f.endsWith(".expected.md"))) {
    const name = md.replace(/\.expected\.md$/, ".pdf");
    const path = join(mdDir, name);
    const bytes = readFileSync(path);
    let res;
    const t = await ctx.time(async () => {
      res = await post(ctx, "/api/v1/pdf/to-markdown", bytes, name);
    }, 3);
    if (res.status !== 200) {
      ctx.row({ tool: "pdf to markdown", case: name, note: `status ${res.status} ${res.json.code ?? ""}` });
      continue;
    }
    const q = measure(readFileSync(join(mdDir, md), "utf8"), res.json.markdown);
    const peer = ctx.native("pdftotext", ["-layout", path, "-"], { runs: 3 });
    ctx.row({
      tool: "pdf to markdown",
      case: name,
      ms: t.median_ms,
      note: `${((res.json.pages * 1000) / t.median_ms).toFixed(1)} pages/s; recall ${q.recall.toFixed(3)}, order ${q.order.toFixed(2)}, tables ${q.tables.found}/${q.tables.total}${q.tables.asCode ? ` (+${q.tables.asCode} as code)` : ""}, headings ${q.headings.found}/${q.headings.total}, level jumps ${q.jumps}`,
      peer: peer ? "pdftotext -layout" : undefined,
      peer_ms: peer?.median_ms,
    });
  }

  await generated(ctx);

  const tables = join(ctx.corpus, "tables");
  for (const set of ["camelot", "tabula"]) {
    for (const csv of readdirSync(join(tables, set)).filter((f) => f.endsWith(".expected.csv"))) {
      // "x.expected.csv" scores x.pdf; "x_1.expected.csv" the second table of x.pdf, unless x_1.pdf exists.
      const own = csv.replace(/\.expected\.csv$/, ".pdf");
      const name = existsSync(join(tables, set, own)) ? own : csv.replace(/_\d+\.expected\.csv$/, ".pdf");
      const path = join(tables, set, name);
      if (!existsSync(path)) continue;
      let res;
      const t = await ctx.time(async () => {
        res = await post(ctx, "/api/v1/pdf/to-xlsx", readFileSync(path), name);
      }, 3);
      if (res.status !== 200) {
        ctx.row({ tool: "pdf to excel", case: `${set}/${csv}`, note: `status ${res.status} ${res.json.code ?? ""}` });
        continue;
      }
      const xlsx = new Uint8Array(await (await fetch(res.json.url)).arrayBuffer());
      const grids = readXlsx(xlsx).sheets.map(textGrid);
      const truth = parseCsv(readFileSync(join(tables, set, csv), "utf8"));
      // Tabula writes all of a page's tables into one CSV: the sheets stacked are scored too.
      const accuracy = Math.max(0, ...grids.map((g) => cellAccuracy(truth, g)), cellAccuracy(truth, grids.flat()));
      const peer = ctx.native("pdftotext", ["-layout", path, "-"], { runs: 3 });
      ctx.row({
        tool: "pdf to excel",
        case: `${set}/${csv}`,
        ms: t.median_ms,
        note: `${((res.json.pages * 1000) / t.median_ms).toFixed(1)} pages/s; cell accuracy ${accuracy.toFixed(2)}`,
        peer: peer ? "pdftotext -layout" : undefined,
        peer_ms: peer?.median_ms,
      });
    }
  }
}

/**
 * The Chromium-printed layout families (test/support/layout-corpus, issue
 * 32), every document once, scored with the same truth beside pdftotext
 * and pdftotext -layout; one row per family and reader.
 */
async function generated(ctx) {
  let ours;
  try {
    ours = await measureFamilies(async (bytes, path) => {
      const res = await post(ctx, "/api/v1/pdf/to-markdown", bytes, path.split("/").pop());
      return res.status === 200 ? res.json.markdown : "";
    });
  } catch (err) {
    ctx.row({ tool: "generated layouts", note: `not generated: ${err.message}` });
    return;
  }
  const peers = [
    ["pdftotext", await measureFamilies(async (_, path) => pdftotext(path) ?? "")],
    ["pdftotext -layout", await measureFamilies(async (_, path) => pdftotext(path, true) ?? "")],
  ];
  for (const f of ours) {
    ctx.row({
      tool: "generated layouts",
      case: `${f.family} (ours)`,
      ms: Math.round(f.ms),
      note: `${f.pages} p, ${((f.pages * 1000) / f.ms).toFixed(1)} pages/s; ${describe(f.score)}`,
    });
    for (const [name, rows] of peers) {
      const peer = rows.find((r) => r.family === f.family);
      if (peer) ctx.row({ tool: "generated layouts", case: `${f.family} (${name})`, ms: Math.round(peer.ms), note: describe(peer.score) });
    }
  }
}
