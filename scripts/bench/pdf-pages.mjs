// Organise pages over HTTP beside native `qpdf --pages ... --rotate` doing
// the same selection and rotation on the same file. Ours is MuPDF in WASM
// (rearrangePages, the outline rewritten, one full save), so the gap is the
// WASM, the Worker, HTTP and the rewrite. Text documents of 10 and 200 pages
// and a real-world file (docling's redp5110).
// `npm run bench -- pages` runs this section alone.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pdfForm as form, textDocuments } from "./pdf-a/inputs.mjs";

export const title = "Organise pages";

const PATH = "/api/v1/pdf/pages";
const mb = (kb) => +(kb / 1024).toFixed(1);

const inputs = (ctx) => textDocuments(ctx.corpus);

// The same work on both sides, in qpdf's page-range syntax (z is the last page).
const CASES = [
  { name: "reverse, rotate all 90", fields: { pages: "-1-1", rotate: "90" }, native: ["z-1", "--", "--rotate=+90"] },
  { name: "odd pages, rotate 1-3 by 180", fields: { pages: "odd", rotate: "1-3:180" }, native: ["1-z:odd", "--", "--rotate=+180:1-3"] },
];

export async function run(ctx) {
  for (const [name, bytes] of await inputs(ctx)) {
    const input = join(ctx.tmp, `pages-${name.replace(/\W+/g, "-")}.pdf`);
    writeFileSync(input, bytes);
    const out = join(ctx.tmp, "pages-peer-out.pdf");
    for (const c of CASES) {
      let last;
      const { result: timing, peak_mb } = await ctx.peak(() =>
        ctx.time(async () => {
          last = await ctx.post(PATH, form(bytes, c.fields));
          if (last.status !== 200) throw new Error(`pages ${name}: ${last.status} ${JSON.stringify(last.json)}`);
        }, 5),
      );
      const stored = await fetch(last.json.file_url).then((r) => r.arrayBuffer());
      const peer = ctx.native("qpdf", [input, "--pages", input, ...c.native, out], { runs: 3 });
      const peerOk = peer && Number.isFinite(peer.median_ms);
      ctx.row({
        tool: "pages",
        case: `${name}, ${c.name} (${bytes.byteLength} B in)`,
        ms: timing.median_ms,
        bytes: stored.byteLength,
        peak_mb,
        peer: peer ? "qpdf --pages --rotate" : undefined,
        peer_ms: peer?.median_ms,
        peer_bytes: peerOk ? readFileSync(out).byteLength : undefined,
        peer_peak_mb: peer ? mb(peer.peak_kb) : undefined,
        note: peerOk ? `${(timing.median_ms / peer.median_ms).toFixed(1)}x qpdf` : peer ? `qpdf failed: ${peer.error}` : "qpdf not installed",
      });
    }
  }
}
