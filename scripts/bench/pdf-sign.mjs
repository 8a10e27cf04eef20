// Sign PDF and Verify signatures over HTTP, with poppler's native `pdfsig`
// verifying the same signed file beside our verify. Signing is one SHA-256
// over the file plus one RSA or ECDSA operation in WebCrypto, so its cost is
// mostly reading and rewriting a few objects with MuPDF and hashing; verify
// also hashes every signed range. Text documents of 10 and 200 pages and
// docling's redp5110 when the corpus has it; an RSA-2048 and an ECDSA P-256
// signer made with `openssl pkcs12 -export` (skipped without openssl).
// `npm run bench -- sign` runs this section alone.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pdfForm as form, textDocuments } from "./pdf-a/inputs.mjs";

export const title = "Sign PDF and Verify signatures";

const SIGN = "/api/v1/pdf/sign";
const VERIFY = "/api/v1/pdf/signatures";
const PASSWORD = "bench";
const mb = (kb) => +(kb / 1024).toFixed(1);

function signer(tmp, name, keyArgs) {
  const opts = { cwd: tmp, encoding: "utf8" };
  const req = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", ...keyArgs, "-nodes", "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "30", "-subj", `/CN=${name}`],
    opts,
  );
  if (req.status !== 0) return null;
  const p12 = spawnSync(
    "openssl",
    ["pkcs12", "-export", "-inkey", `${name}.key`, "-in", `${name}.pem`, "-passout", `pass:${PASSWORD}`, "-out", `${name}.p12`],
    opts,
  );
  return p12.status === 0 ? readFileSync(join(tmp, `${name}.p12`)) : null;
}

export async function run(ctx) {
  const signers = [
    ["RSA-2048", signer(ctx.tmp, "bench-rsa", ["rsa:2048"])],
    ["ECDSA P-256", signer(ctx.tmp, "bench-ec", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"])],
  ].filter(([, p12]) => p12);
  if (!signers.length) {
    ctx.row({ tool: "sign", case: "-", note: "openssl not installed: no signer to bench with" });
    return;
  }
  for (const [name, bytes] of await textDocuments(ctx.corpus)) {
    for (const [kind, p12] of signers) {
      const body = () => {
        const fd = form(bytes, { certificate_password: PASSWORD });
        fd.append("certificate", new File([p12], "signer.p12", { type: "application/x-pkcs12" }));
        return fd;
      };
      let last;
      const { result: timing, peak_mb } = await ctx.peak(() =>
        ctx.time(async () => {
          last = await ctx.post(SIGN, body());
          if (last.status !== 200) throw new Error(`sign ${name}: ${last.status} ${JSON.stringify(last.json)}`);
        }, 5),
      );
      const signed = new Uint8Array(await fetch(last.json.file_url).then((r) => r.arrayBuffer()));
      ctx.row({
        tool: "sign",
        case: `${name}, ${kind} (${bytes.byteLength} B in)`,
        ms: timing.median_ms,
        bytes: signed.byteLength,
        peak_mb,
        note: `+${signed.byteLength - bytes.byteLength} B appended`,
      });

      const path = join(ctx.tmp, `sign-${name.replace(/\W+/g, "-")}.pdf`);
      writeFileSync(path, signed);
      let verdict;
      const verify = await ctx.peak(() =>
        ctx.time(async () => {
          const res = await ctx.post(VERIFY, form(signed, {}));
          if (res.status !== 200) throw new Error(`verify ${name}: ${res.status} ${JSON.stringify(res.json)}`);
          verdict = res.json.signatures[0];
        }, 5),
      );
      const peer = ctx.native("pdfsig", ["-nocert", path], { runs: 3 });
      const peerOk = peer && Number.isFinite(peer.median_ms);
      ctx.row({
        tool: "verify signatures",
        case: `${name}, ${kind}`,
        ms: verify.result.median_ms,
        peak_mb: verify.peak_mb,
        peer: peer ? "pdfsig -nocert" : undefined,
        peer_ms: peer?.median_ms,
        peer_peak_mb: peer ? mb(peer.peak_kb) : undefined,
        note: `valid=${verdict?.signature_valid && verdict?.digest_matches}; ${peerOk ? `${(verify.result.median_ms / peer.median_ms).toFixed(1)}x pdfsig` : peer ? `pdfsig failed: ${peer.error}` : "pdfsig not installed"}`,
      });
    }
  }
}
