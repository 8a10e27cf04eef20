// Edit metadata and Attachments figures on a 10-page and a 200-page
// document, end to end over HTTP, with the workerd peak RSS. Native peers:
// `mutool run` setting the Info fields and Ghostscript's pdfmark (which
// rewrites the whole file) for metadata; `qpdf --add-attachment` for adding
// and `pdfdetach -saveall` for extracting attachments (qpdf 11 writes no
// /AFRelationship, so its files are plain attachments).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textPdf } from "./pdf-a/inputs.mjs";

export const title = "PDF edit (metadata, attachments)";

const METADATA = {
  title: "Bench report",
  author: "Ann Example",
  subject: "Benchmarks",
  keywords: "bench, pdf, metadata",
  creator: "Bench",
  creation_date: "2024-05-01T10:20:30+02:00",
  language: "en-GB",
  custom: JSON.stringify({ Department: "Engineering" }),
};

const MUTOOL_SCRIPT = `var doc = new PDFDocument(scriptArgs[0]);
var fields = { Title: "Bench report", Author: "Ann Example", Subject: "Benchmarks", Keywords: "bench, pdf, metadata", Creator: "Bench", Department: "Engineering" };
for (var k in fields) doc.setMetaData("info:" + k, fields[k]);
doc.save(scriptArgs[1], "garbage=compact,compress");
`;

const PDFMARK =
  "[ /Title (Bench report) /Author (Ann Example) /Subject (Benchmarks) /Keywords (bench, pdf, metadata) /Creator (Bench) /Department (Engineering) /DOCINFO pdfmark\n";

const form = (fields) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
  return fd;
};

async function timed(ctx, path, fields, runs) {
  let last;
  const { result, peak_mb } = await ctx.peak(() =>
    ctx.time(async () => {
      last = await ctx.post(path, form(fields()));
      if (last.status !== 200) throw new Error(`${path}: ${JSON.stringify(last.json)}`);
    }, runs),
  );
  const bytes = last.json.file_url ? (await (await fetch(last.json.file_url)).arrayBuffer()).byteLength : undefined;
  return { ms: result.median_ms, peak_mb, bytes, json: last.json };
}

const peerRow = (name, peer, out) =>
  peer?.error
    ? { peer: name, note: `peer failed: ${peer.error.trim().split("\n")[0]}` }
    : peer
      ? { peer: name, peer_ms: peer.median_ms, peer_bytes: out ? readFileSync(out).length : undefined, peer_peak_mb: +(peer.peak_kb / 1024).toFixed(1) }
      : {};

async function metadata(ctx, pages, pdf, input) {
  const r = await timed(
    ctx,
    "/api/v1/pdf/metadata",
    () => ({ file: new File([pdf], "bench.pdf", { type: "application/pdf" }), ...METADATA }),
    pages === 10 ? 5 : 3,
  );
  const script = join(ctx.tmp, "meta.js");
  writeFileSync(script, MUTOOL_SCRIPT);
  const mutoolOut = join(ctx.tmp, "meta-mutool.pdf");
  const mutool = ctx.native("mutool", ["run", script, input, mutoolOut]);
  ctx.row({
    tool: "edit-metadata",
    case: `${pages} pages, every field`,
    ms: r.ms,
    bytes: r.bytes,
    peak_mb: r.peak_mb,
    ...peerRow("mutool run", mutool, mutool && mutoolOut),
  });
  const marks = join(ctx.tmp, "pdfmarks");
  writeFileSync(marks, PDFMARK);
  const gsOut = join(ctx.tmp, "meta-gs.pdf");
  const gs = ctx.native("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite", `-sOutputFile=${gsOut}`, input, marks], { runs: pages === 10 ? 3 : 1 });
  if (gs) ctx.row({ tool: "edit-metadata", case: `${pages} pages, vs Ghostscript pdfmark`, ms: r.ms, ...peerRow("gs pdfmark (full rewrite)", gs, gsOut) });
}

async function attachments(ctx, pages, pdf, input, parts) {
  const add = await timed(
    ctx,
    "/api/v1/pdf/attachments",
    () => ({ file: new File([pdf], "bench.pdf", { type: "application/pdf" }), action: "add", attachments: parts.files(), relationship: "Data" }),
    pages === 10 ? 5 : 3,
  );
  const qpdfOut = join(ctx.tmp, "attach-qpdf.pdf");
  const args = [input, qpdfOut];
  for (const p of parts.paths) args.push("--add-attachment", p.path, `--key=${p.name}`, `--mimetype=${p.type}`, "--");
  const qpdf = ctx.native("qpdf", args);
  ctx.row({
    tool: "attachments",
    case: `${pages} pages, add ${parts.paths.length} (${parts.total} B)`,
    ms: add.ms,
    bytes: add.bytes,
    peak_mb: add.peak_mb,
    ...peerRow("qpdf --add-attachment", qpdf, qpdf && qpdfOut),
  });

  const withFiles = new Uint8Array(await (await fetch(add.json.file_url)).arrayBuffer());
  const attached = join(ctx.tmp, `attached-${pages}.pdf`);
  writeFileSync(attached, withFiles);
  const list = await timed(
    ctx,
    "/api/v1/pdf/attachments",
    () => ({ file: new File([withFiles], "bench.pdf", { type: "application/pdf" }), action: "list" }),
    5,
  );
  const qpdfList = ctx.native("qpdf", ["--list-attachments", attached]);
  ctx.row({ tool: "attachments", case: `${pages} pages, list`, ms: list.ms, peak_mb: list.peak_mb, ...peerRow("qpdf --list-attachments", qpdfList) });
  const all = await timed(
    ctx,
    "/api/v1/pdf/attachments",
    () => ({ file: new File([withFiles], "bench.pdf", { type: "application/pdf" }), action: "extract" }),
    5,
  );
  const detach = ctx.native("pdfdetach", ["-saveall", "-o", ctx.tmp, attached]);
  ctx.row({
    tool: "attachments",
    case: `${pages} pages, extract all (ZIP)`,
    ms: all.ms,
    bytes: all.bytes,
    peak_mb: all.peak_mb,
    ...peerRow("pdfdetach -saveall", detach),
  });
}

function attachmentParts(tmp) {
  const xml = new TextEncoder().encode(`<?xml version="1.0"?><invoice>${"<line>item</line>".repeat(20_000)}</invoice>`);
  const bin = Uint8Array.from({ length: 2_000_000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);
  const specs = [
    { name: "factur-x.xml", type: "text/xml", data: xml },
    { name: "data.bin", type: "application/octet-stream", data: bin },
  ];
  const paths = specs.map((s) => {
    const path = join(tmp, s.name);
    writeFileSync(path, s.data);
    return { ...s, path };
  });
  return { paths, total: xml.length + bin.length, files: () => specs.map((s) => new File([s.data], s.name, { type: s.type })) };
}

export async function run(ctx) {
  const parts = attachmentParts(ctx.tmp);
  for (const pages of [10, 200]) {
    const pdf = await textPdf(pages);
    const input = join(ctx.tmp, `pdf-edit-${pages}.pdf`);
    writeFileSync(input, pdf);
    await metadata(ctx, pages, pdf, input);
    await attachments(ctx, pages, pdf, input, parts);
  }
}
