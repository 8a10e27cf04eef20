// Protect PDF over HTTP beside native `qpdf --encrypt` on the same file: our
// tool is qpdf 12 compiled to WebAssembly (plus MuPDF's check that the input
// is not encrypted yet), so the gap is the WASM, the Worker and HTTP. Text
// documents of 10 and 200 pages and a real-world file (docling's redp5110),
// AES-256 and AES-128 with restricted permissions.
// `npm run bench -- protect` runs this section alone.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pdfForm as form, textDocuments } from "./pdf-a/inputs.mjs";

export const title = "Protect PDF";

const PATH = "/api/v1/pdf/protect";
const mb = (kb) => +(kb / 1024).toFixed(1);

const inputs = (ctx) => textDocuments(ctx.corpus);

// The same settings on both sides; the native peer takes qpdf 11's positional form (Debian's qpdf), which qpdf 12 still reads.
const CIPHERS = [
  { encryption: "aes-256", native: ["256"] },
  { encryption: "aes-128", native: ["128", "--use-aes=y"] },
];

export async function run(ctx) {
  for (const [name, bytes] of await inputs(ctx)) {
    const input = join(ctx.tmp, `protect-${name.replace(/\W+/g, "-")}.pdf`);
    writeFileSync(input, bytes);
    const out = join(ctx.tmp, "protect-peer-out.pdf");
    for (const c of CIPHERS) {
      let last;
      const { result: timing, peak_mb } = await ctx.peak(() =>
        ctx.time(async () => {
          last = await ctx.post(PATH, form(bytes, { user_password: "reader", owner_password: "author", encryption: c.encryption, permissions: "print,copy" }));
          if (last.status !== 200) throw new Error(`protect ${name}: ${last.status} ${JSON.stringify(last.json)}`);
        }, 5),
      );
      const stored = await fetch(last.json.file_url).then((r) => r.arrayBuffer());
      const args = [input, "--encrypt", "reader", "author", ...c.native, "--print=low", "--modify=none", "--", out];
      const peer = ctx.native("qpdf", args, { runs: 3 });
      const peerOk = peer && Number.isFinite(peer.median_ms);
      ctx.row({
        tool: "protect",
        case: `${name}, ${c.encryption} (${bytes.byteLength} B in)`,
        ms: timing.median_ms,
        bytes: stored.byteLength,
        peak_mb,
        peer: peer ? "qpdf --encrypt" : undefined,
        peer_ms: peer?.median_ms,
        peer_bytes: peerOk ? readFileSync(out).byteLength : undefined,
        peer_peak_mb: peer ? mb(peer.peak_kb) : undefined,
        note: peerOk ? `${(timing.median_ms / peer.median_ms).toFixed(1)}x qpdf` : peer ? `qpdf failed: ${peer.error}` : "qpdf not installed",
      });
    }
  }
}
