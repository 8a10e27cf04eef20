// PDF toolkit A figures, end to end over HTTP against the bundled Worker:
//   - the compression goal: on an image-heavy PDF (scans + photos) the
//     medium level must shrink at least as much as Ghostscript
//     -dPDFSETTINGS=/ebook with page SSIM >= 0.95; both are printed, plus
//     all three levels and a real-world file (docling's redp5110);
//   - median latency of every tool on a 10-page and a 200-page document,
//     the workerd peak RSS, and the native peer where installed
//     (gs /ebook for compress, qpdf --decrypt for unlock, mutool clean for
//     repair, pdfinfo for metadata).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAccountWithKey, ROOT } from "../../test/e2e/server.mjs";
import { damaged, encrypted, imageHeavyPdf, pageSsim, textPdf } from "./pdf-a/inputs.mjs";

export const title = "PDF toolkit A";

const b64 = (bytes) => Buffer.from(bytes).toString("base64");
const file = (bytes, name = "bench.pdf") => new File([bytes], name, { type: "application/pdf" });
const mb = (kb) => +(kb / 1024).toFixed(1);

function form(fields) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

/** POST with another account's key (plans pick the compression level). */
async function postAs(ctx, key, path, body) {
  const started = performance.now();
  const res = await fetch(ctx.base + path, { method: "POST", body: JSON.stringify(body), headers: { "X-API-Key": key, "Content-Type": "application/json" } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return { json: JSON.parse(text), ms: performance.now() - started };
}

async function fetchBytes(url) {
  return new Uint8Array(await (await fetch(url)).arrayBuffer());
}

function ghostscript(ctx, input, name) {
  const src = join(ctx.tmp, `${name}.pdf`);
  const out = join(ctx.tmp, `${name}-ebook.pdf`);
  writeFileSync(src, input);
  const peer = ctx.native("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/ebook", `-sOutputFile=${out}`, src], {
    runs: 3,
  });
  return peer && Number.isFinite(peer.median_ms) ? { ...peer, bytes: readFileSync(out) } : null;
}

const pct = (after, before) => `${(100 * (1 - after / before)).toFixed(1)}%`;

async function compressionGoal(ctx, keys, name, input, judge) {
  const gs = ghostscript(ctx, input, name);
  const gsSsim = gs ? pageSsim(input, gs.bytes, 96) : null;
  for (const [level, key] of Object.entries(keys)) {
    let last;
    const { result: timing, peak_mb } = await ctx.peak(() =>
      ctx.time(async () => {
        last = (await postAs(ctx, key, "/api/v1/compression/single", { file_data: b64(input), filename: `${name}.pdf` })).json;
      }, 3),
    );
    const out = await fetchBytes(last.download_url);
    const at96 = pageSsim(input, out, 96);
    const at150 = level === "medium" ? pageSsim(input, out, 150) : null;
    const gs150 = level === "medium" && gs ? pageSsim(input, gs.bytes, 150) : null;
    // The goal: medium at least as small as gs /ebook, every page SSIM >= 0.95 (at 96 and at 150 dpi here).
    const met = gs && out.length <= gs.bytes.length && at96.min >= 0.95 && at150?.min >= 0.95;
    const verdict = judge && level === "medium" && gs ? `; goal ${met ? "MET" : "NOT MET"}` : "";
    ctx.row({
      tool: "compress",
      case: `${name} ${level} (${(input.length / 1048576).toFixed(1)} MB)`,
      ms: timing.median_ms,
      bytes: out.length,
      peak_mb,
      peer: gs && level === "medium" ? "gs /ebook" : undefined,
      peer_ms: level === "medium" ? gs?.median_ms : undefined,
      peer_bytes: level === "medium" ? gs?.bytes.length : undefined,
      peer_peak_mb: level === "medium" && gs ? mb(gs.peak_kb) : undefined,
      note:
        `-${pct(out.length, input.length)}, page SSIM@96dpi mean ${at96.mean.toFixed(4)} min ${at96.min.toFixed(4)}, quality_score ${last.quality_score}` +
        (at150 ? `, @150dpi mean ${at150.mean.toFixed(4)} min ${at150.min.toFixed(4)}` : "") +
        (level === "medium" && gs
          ? ` | gs: -${pct(gs.bytes.length, input.length)}, SSIM@96 mean ${gsSsim.mean.toFixed(4)} min ${gsSsim.min.toFixed(4)}, @150 mean ${gs150.mean.toFixed(4)} min ${gs150.min.toFixed(4)}`
          : "") +
        verdict,
    });
  }
}

function peerRow(ctx, cmd, args) {
  const r = ctx.native(cmd, args, { runs: 3, allowFailure: true });
  return r && Number.isFinite(r.median_ms) ? r : null;
}

async function latency(ctx, pages, docs) {
  const { text, locked, broken } = docs;
  const paths = Object.fromEntries(Object.entries({ text, locked, broken }).map(([k, _v]) => [k, join(ctx.tmp, `${k}${pages}.pdf`)]));
  for (const [k, p] of Object.entries(paths)) writeFileSync(p, docs[k]);
  const out = join(ctx.tmp, `peer-out${pages}.pdf`);
  const cases = [
    {
      tool: "compress",
      body: () => ({ file_data: b64(text), filename: "t.pdf" }),
      path: "/api/v1/compression/single",
      peer: ["gs", ["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/ebook", `-sOutputFile=${out}`, paths.text]],
    },
    {
      tool: "compress batch",
      body: () => ({ files: [1, 2, 3].map((i) => ({ file_data: b64(text), filename: `t${i}.pdf` })) }),
      path: "/api/v1/compression/batch",
      note: "3 files",
    },
    {
      tool: "unlock",
      body: () => form({ file: file(locked), password: "user-pw" }),
      path: "/api/v1/security/security/password/remove",
      peer: ["qpdf", ["--decrypt", "--password=user-pw", paths.locked, out]],
    },
    { tool: "repair", body: () => form({ file: file(broken) }), path: "/api/v1/pdf/repair", peer: ["mutool", ["clean", paths.broken, out]] },
    // The same call beside native qpdf recovering and linearizing, as our output is linearized by qpdf (WASM).
    { tool: "repair", body: () => form({ file: file(broken) }), path: "/api/v1/pdf/repair", peer: ["qpdf", ["--linearize", paths.broken, out]] },
    { tool: "metadata", body: () => form({ file: file(text) }), path: "/api/v1/analyze/metadata", peer: ["pdfinfo", [paths.text]] },
    { tool: "pdfa validate", body: () => form({ file: file(text) }), path: "/api/v1/pdf/pdfa/validate" },
  ];
  for (const c of cases) {
    let last;
    const { result: timing, peak_mb } = await ctx.peak(() =>
      ctx.time(async () => {
        last = await ctx.post(c.path, c.body());
        if (last.status !== 200) throw new Error(`${c.tool}: ${last.status} ${JSON.stringify(last.json)}`);
      }, 5),
    );
    const peer = c.peer ? peerRow(ctx, ...c.peer) : null;
    const bytes = last.json.compressed_size ?? last.json.repaired_size;
    ctx.row({
      tool: c.tool,
      case: `${pages} pages`,
      ms: timing.median_ms,
      bytes,
      peak_mb,
      peer: peer ? c.peer[0] : undefined,
      peer_ms: peer?.median_ms,
      peer_peak_mb: peer ? mb(peer.peak_kb) : undefined,
      note: [c.note, peer ? `${(timing.median_ms / peer.median_ms).toFixed(1)}x ${c.peer[0]}` : c.peer ? `${c.peer[0]} not installed` : ""]
        .filter(Boolean)
        .join("; "),
    });
  }
}

/** Undici keeps idle sockets that the server closes after 5 s; a long synchronous build in between leaves a dead one first in line. */
async function flushIdleSockets(base) {
  for (let i = 0; i < 2; i++)
    await fetch(`${base}/`)
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
}

export async function run(ctx) {
  // Every input is built before the first request (see flushIdleSockets).
  const heavy = await imageHeavyPdf(ctx.corpus, ROOT);
  const redp = readFileSync(join(ctx.corpus, "markdown/docling/redp5110_sampled.pdf"));
  const docs = {};
  for (const pages of [10, 200]) {
    const text = await textPdf(pages);
    docs[pages] = { text, locked: encrypted(text, "user-pw", "owner-pw"), broken: damaged(text) };
  }
  await flushIdleSockets(ctx.base);
  // One account per level: the plan decides it (free basic, starter medium, pro maximum).
  const keys = {};
  for (const [plan, level] of [
    ["free", "basic"],
    ["starter", "medium"],
    ["pro", "maximum"],
  ]) {
    keys[level] = (await createAccountWithKey(ctx.base, { plan, credits: 1_000_000 })).apiKey;
  }
  await compressionGoal(ctx, keys, "scans+photos", heavy, true);
  // A mixed real-world file for context (its gap to gs is font subsetting: MuPDF 1.28 does not subset CFF fonts).
  await compressionGoal(ctx, { medium: keys.medium }, "redp5110", redp, false);
  for (const pages of [10, 200]) await latency(ctx, pages, docs[pages]);
  const heaps = (await ctx.runtime()).wasm_heaps ?? {};
  ctx.row({
    tool: "runtime",
    case: "WASM heaps after PDF toolkit A",
    note: Object.entries(heaps)
      .map(([k, v]) => `${k} ${(v / 1048576).toFixed(1)} MB`)
      .join(", "),
  });
}
