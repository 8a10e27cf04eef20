// Sign PDF through the real bundled `wrangler dev`, its output read by
// poppler's pdfsig, a native verifier that shares no code with ours (NSS):
// the signature is valid and covers the whole document, a byte changed
// afterwards is noticed, and signing twice leaves both signatures valid.
// OpenSSL's `cms -verify` checks the CMS itself (ESS signing-certificate-v2
// included), and a CMS OpenSSL made (RSA-PSS, with signing-time) is read by
// our verify.
// The PKCS#12 is made here with `openssl pkcs12 -export` (OpenSSL 3 defaults:
// AES-256-CBC, PBKDF2, SHA-256 MAC). A missing tool fails under CI and skips
// visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-sign-"));
before(async () => {
  srv = await startServerWithKey({ credits: 10_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const run = (cmd, args) => spawnSync(cmd, args, { cwd: tmp, encoding: "utf8" });

/** A self-signed signer in a PKCS#12, RSA or ECDSA. */
function makeP12(name, keyArgs) {
  const req = run("openssl", [
    "req",
    "-x509",
    "-newkey",
    ...keyArgs,
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.pem`,
    "-days",
    "30",
    "-subj",
    `/O=Docapi E2E/CN=${name}`,
  ]);
  assert.equal(req.status, 0, req.stderr);
  const p12 = run("openssl", ["pkcs12", "-export", "-inkey", `${name}.key`, "-in", `${name}.pem`, "-passout", "pass:e2e secret", "-out", `${name}.p12`]);
  assert.equal(p12.status, 0, p12.stderr);
  return readFileSync(join(tmp, `${name}.p12`));
}

async function makePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Agreement to be signed", { x: 40, y: 780, size: 14, font });
  return doc.save();
}

async function sign(pdf, p12, fields = {}) {
  const fd = new FormData();
  fd.append("file", new File([pdf], "agreement.pdf", { type: "application/pdf" }));
  fd.append("certificate", new File([p12], "signer.p12", { type: "application/x-pkcs12" }));
  fd.append("certificate_password", "e2e secret");
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}/api/v1/pdf/sign`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "20");
  const out = await fetch(body.file_url);
  assert.equal(out.status, 200);
  return new Uint8Array(await out.arrayBuffer());
}

const save = (bytes, name) => {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
};

/** pdfsig's report, one entry per signature. */
function pdfsig(path) {
  const r = spawnSync("pdfsig", ["-nocert", path], { encoding: "utf8" });
  const blocks = r.stdout.split(/^Signature #\d+:$/m).slice(1);
  return {
    status: r.status,
    out: r.stdout + r.stderr,
    signatures: blocks.map((b) => ({
      valid: /Signature Validation: Signature is Valid\./.test(b),
      whole: /Total document signed/.test(b),
      subFilter: /Signature Type: (\S+)/.exec(b)?.[1],
      block: b,
    })),
  };
}

/** The DER value at the start of a zero-padded /Contents: its length is in its header (X.690, 8.1.3). */
function derOnly(buf) {
  const first = buf[1];
  if (first < 0x80) return buf.subarray(0, 2 + first);
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + buf[2 + i];
  return buf.subarray(0, 2 + n + len);
}

let RSA;
let EC;
const signers = () => {
  RSA ??= makeP12("rsa-signer", ["rsa:2048"]);
  EC ??= makeP12("ec-signer", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]);
  return { RSA, EC };
};

test("RSA and ECDSA: pdfsig says valid and the total document signed, PAdES ETSI.CAdES.detached", async (t) => {
  if (!requireTool(t, "pdfsig") || !requireTool(t, "openssl")) return;
  for (const [name, p12] of Object.entries(signers())) {
    const path = save(await sign(await makePdf(), p12, { reason: "e2e", rect: "40,40,200,50" }), `${name}.pdf`);
    const report = pdfsig(path);
    assert.equal(report.signatures.length, 1, report.out);
    assert.ok(report.signatures[0].valid, `${name}: ${report.out}`);
    assert.ok(report.signatures[0].whole, `${name}: ${report.out}`);
    assert.equal(report.signatures[0].subFilter, "ETSI.CAdES.detached", report.out);
  }
});

test("a byte changed after signing: pdfsig reports the signature broken", async (t) => {
  if (!requireTool(t, "pdfsig") || !requireTool(t, "openssl")) return;
  const signed = await sign(await makePdf(), signers().RSA);
  // A byte of the original revision, well before the signature: inside the signed range.
  const tampered = signed.slice();
  tampered[20] ^= 0x01;
  const report = pdfsig(save(tampered, "tampered.pdf"));
  assert.equal(report.signatures.length, 1, report.out);
  assert.ok(!report.signatures[0].valid, report.out);
  assert.match(report.signatures[0].block, /Signature Validation: Digest Mismatch\./);
});

test("signing twice: pdfsig finds two signatures, both valid, the last covering the total document", async (t) => {
  if (!requireTool(t, "pdfsig") || !requireTool(t, "openssl")) return;
  const { RSA: rsa, EC: ec } = signers();
  const once = await sign(await makePdf(), rsa);
  const twice = await sign(once, ec, { rect: "300,40,200,50", text: "Second signer" });
  const report = pdfsig(save(twice, "twice.pdf"));
  assert.equal(report.signatures.length, 2, report.out);
  assert.ok(
    report.signatures.every((s) => s.valid),
    report.out,
  );
  assert.ok(report.signatures[1].whole, report.out);
  assert.ok(!report.signatures[0].whole, `the first signature does not cover the second revision:\n${report.out}`);
});

test("our verify reads a CMS OpenSSL made (RSA-PSS, with signing-time) in the same byte range: valid, as pdfsig agrees", async (t) => {
  if (!requireTool(t, "pdfsig") || !requireTool(t, "openssl")) return;
  const signed = await sign(await makePdf(), signers().RSA);
  const text = Buffer.from(signed).toString("latin1");
  const [, a, b, c, d] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/.exec(text).map(Number);
  assert.equal(a, 0);
  save(Buffer.concat([signed.subarray(0, b), signed.subarray(c, c + d)]), "range.bin");
  const cms = run("openssl", [
    "cms",
    "-sign",
    "-binary",
    "-in",
    "range.bin",
    "-signer",
    "rsa-signer.pem",
    "-inkey",
    "rsa-signer.key",
    "-md",
    "sha256",
    "-keyopt",
    "rsa_padding_mode:pss",
    "-outform",
    "DER",
    "-out",
    "openssl.cms",
  ]);
  assert.equal(cms.status, 0, cms.stderr);
  const der = readFileSync(join(tmp, "openssl.cms"));
  const hexDigits = der.toString("hex");
  assert.ok(hexDigits.length <= c - b - 2, "OpenSSL's CMS fits the hole");
  const replaced = signed.slice();
  replaced.set(Buffer.from(hexDigits.padEnd(c - b - 2, "0"), "latin1"), b + 1);

  const fd = new FormData();
  fd.append("file", new File([replaced], "openssl-signed.pdf", { type: "application/pdf" }));
  const res = await fetch(`${srv.base}/api/v1/pdf/signatures`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const [sig] = body.signatures;
  assert.equal(sig.signature_algorithm, "RSA-PSS with SHA-256", JSON.stringify(sig));
  assert.ok(sig.digest_matches && sig.signature_valid && sig.byte_range_covers_revision, JSON.stringify(sig));
  assert.ok(sig.cms_signing_time, "OpenSSL adds a signing-time attribute");
  assert.ok(pdfsig(save(replaced, "openssl-signed.pdf")).signatures[0].valid);
});

test("the CMS passes `openssl cms -verify` over the signed range (OpenSSL 3 also checks the ESS signing-certificate-v2 hash)", async (t) => {
  if (!requireTool(t, "openssl")) return;
  const { RSA: rsa, EC: ec } = signers();
  for (const [name, p12] of [
    ["rsa", rsa],
    ["ec", ec],
  ]) {
    const signed = await sign(await makePdf(), p12);
    const text = Buffer.from(signed).toString("latin1");
    const [, , b, c, d] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/.exec(text).map(Number);
    save(Buffer.concat([signed.subarray(0, b), signed.subarray(c, c + d)]), `${name}-range.bin`);
    save(derOnly(Buffer.from(text.slice(b + 1, c - 1), "hex")), `${name}.cms`);
    const asn = run("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", `${name}.cms`]);
    assert.equal(asn.status, 0, asn.stderr);
    assert.match(asn.stdout, /id-smime-aa-signingCertificateV2/);
    assert.doesNotMatch(asn.stdout, /signingTime/);
    const ok = run("openssl", [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      `${name}.cms`,
      "-content",
      `${name}-range.bin`,
      "-noverify",
      "-out",
      "/dev/null",
    ]);
    assert.equal(ok.status, 0, `${name}: ${ok.stderr}`);
    assert.match(ok.stderr, /Verification successful/);
  }
});
