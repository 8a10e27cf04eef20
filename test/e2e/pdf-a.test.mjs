// PDF toolkit A through the real bundled `wrangler dev`, checked by native
// oracles the Worker cannot run: qpdf --check, pdfinfo, pdftotext, pdfimages,
// pdftoppm (an independent renderer for SSIM) and Ghostscript. A missing tool
// fails under CI and skips visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { corpusPath, requireCorpus, requireTool, startServerWithKey } from "./server.mjs";

const corpus = (path) => readFileSync(corpusPath(path));
let srv;
let dir;

before(async () => {
  srv = await startServerWithKey({ credits: 100_000 });
  dir = mkdtempSync(join(tmpdir(), "pdf-a-e2e-"));
});
after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (cmd, args) => spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

function save(name, bytes) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function post(path, body, headers = {}) {
  const isForm = body instanceof FormData;
  const res = await fetch(srv.base + path, {
    method: "POST",
    body: isForm ? body : JSON.stringify(body),
    headers: { "X-API-Key": srv.apiKey, ...(isForm ? {} : { "Content-Type": "application/json" }), ...headers },
  });
  return { res, body: await res.json() };
}

/** Multipart body: strings as fields, bytes as a file part named `name`. */
function form(fields, name = "doc.pdf") {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, typeof v === "string" ? v : new File([v], name));
  return fd;
}

async function fetchBytes(url) {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return new Uint8Array(await res.arrayBuffer());
}

const pages = (path) => Number(/Pages:\s+(\d+)/.exec(run("pdfinfo", [path]).stdout)?.[1] ?? NaN);

/** Binary PGM (P5) from pdftoppm -gray. */
function readPgm(path) {
  const buf = readFileSync(path);
  const header = buf.toString("latin1", 0, 64).split(/\s+/);
  const [w, h] = [Number(header[1]), Number(header[2])];
  return { w, h, data: buf.subarray(buf.length - w * h) };
}

/** Plain mean SSIM, 8x8 windows stepping by 4: written here, independent of src/engines/quality. */
function ssim(a, b) {
  const C1 = 6.5025;
  const C2 = 58.5225;
  let total = 0;
  let n = 0;
  for (let y = 0; y + 8 <= a.h; y += 4) {
    for (let x = 0; x + 8 <= a.w; x += 4) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const p = a.data[(y + j) * a.w + x + i];
          const q = b.data[(y + j) * b.w + x + i];
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const ma = sa / 64,
        mb = sb / 64;
      const va = saa / 64 - ma * ma,
        vb = sbb / 64 - mb * mb,
        cov = sab / 64 - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      n++;
    }
  }
  return total / n;
}

function renderedSsim(before, after, page, dpi = 96) {
  const render = (pdf, tag) => {
    const prefix = join(dir, `${tag}-${page}`);
    const r = run("pdftoppm", ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", pdf, prefix]);
    assert.equal(r.status, 0, r.stderr);
    return readPgm(`${prefix}.pgm`);
  };
  return ssim(render(before, "a"), render(after, "b"));
}

test("compress: a real image-heavy PDF passes qpdf --check, keeps its text, images come down to the level's resolution, poppler SSIM >= 0.95", async (t) => {
  if (!requireCorpus(t) || !requireTool(t, "qpdf") || !requireTool(t, "pdftoppm") || !requireTool(t, "pdfimages")) return;
  const input = corpus("markdown/docling/redp5110_sampled.pdf");
  const { res, body } = await post("/api/v1/compression/single", { file_data: input.toString("base64"), filename: "redp.pdf" });
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "20");
  assert.equal(body.level, "maximum"); // the e2e account is on the pro plan
  const out = await fetchBytes(body.download_url);
  assert.equal(out.length, body.compressed_size);
  const [a, b] = [save("redp.pdf", input), save("redp-small.pdf", out)];
  assert.equal(run("qpdf", ["--check", b]).status, 0);
  assert.equal(pages(b), 18);
  assert.equal(run("pdftotext", [b, "-"]).stdout, run("pdftotext", [a, "-"]).stdout);
  const ppi = run("pdfimages", ["-list", b])
    .stdout.split("\n")
    .slice(2)
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+/));
  const jpegPpi = ppi.filter((c) => c[8] === "jpeg").map((c) => Number(c[12]));
  assert.ok(jpegPpi.length > 0 && Math.max(...jpegPpi) <= 110, `jpeg ppi ${jpegPpi}`);
  for (const page of [1, 3, 4]) {
    const s = renderedSsim(a, b, page);
    assert.ok(s >= 0.95, `page ${page} SSIM ${s.toFixed(4)} (poppler)`);
  }
});

test("compress: the expiring link is served with the PDF content type", async (t) => {
  if (!requireCorpus(t)) return;
  const input = corpus("pdfjs/plain/three_pages_with_number.pdf");
  const { body } = await post("/api/v1/compression/single", { file_data: input.toString("base64"), filename: "n.pdf" });
  const file = await fetch(body.download_url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("Content-Type"), "application/pdf");
  const tampered = await fetch(body.download_url.replace(/sig=[^&]+/, "sig=AAAA"));
  assert.equal(tampered.status, 404);
});

test("unlock: qpdf and pdfinfo see no encryption left; wrong password 400; no Origin anonymously 401", async (t) => {
  if (!requireCorpus(t) || !requireTool(t, "qpdf") || !requireTool(t, "pdfinfo")) return;
  for (const [file, password, expected] of [
    ["qpdf/encrypted/enc-R2_V1_U-view_O-master.pdf", "view", 30],
    ["markdown/docling/2206.01062_pg3_password.pdf", "owner", 1],
    ["qpdf/encrypted/enc-XI-R6_V5_O-master.pdf", "master", 30],
  ]) {
    const { res, body } = await post("/api/v1/security/security/password/remove", form({ file: corpus(file), password }));
    assert.equal(res.status, 200, `${file}: ${JSON.stringify(body)}`);
    const out = save("unlocked.pdf", await fetchBytes(body.file_url));
    assert.match(run("qpdf", ["--show-encryption", out]).stdout, /File is not encrypted/);
    assert.equal(run("qpdf", ["--check", out]).status, 0);
    assert.match(run("pdfinfo", [out]).stdout, /Encrypted:\s+no/);
    assert.equal(pages(out), expected);
  }
  const wrong = await post("/api/v1/security/security/password/remove", form({ file: corpus("pdfjs/encrypted/pr6531_1.pdf"), password: "qwerty" }));
  assert.equal(wrong.res.status, 400);
  assert.equal(wrong.body.code, "wrong_password");
  const fd = form({ file: corpus("tables/tabula/encrypted.pdf"), password: "userpassword" });
  const anon = await fetch(`${srv.base}/api/v1/security/security/password/remove`, { method: "POST", body: fd });
  assert.equal(anon.status, 401);
});

test("repair: every damaged corpus file passes qpdf --check afterwards or is refused with 422, each within 10 s", async (t) => {
  if (!requireCorpus(t) || !requireTool(t, "qpdf") || !requireTool(t, "pdfinfo")) return;
  const files = [
    ...readdirSync(corpusPath("qpdf/damaged")).map((f) => `qpdf/damaged/${f}`),
    ...readdirSync(corpusPath("pdfjs/broken")).map((f) => `pdfjs/broken/${f}`),
  ];
  let recovered = 0;
  for (const file of files) {
    const started = Date.now();
    const { res, body } = await post("/api/v1/pdf/repair", form({ file: corpus(file) }, "damaged.pdf"));
    assert.ok(Date.now() - started < 10_000, `${file} took ${Date.now() - started} ms`);
    assert.ok(res.status === 200 || res.status === 422, `${file}: ${res.status} ${JSON.stringify(body)}`);
    if (res.status === 422) {
      assert.equal(body.code, "unreadable_document", file);
      continue;
    }
    const out = save("repaired.pdf", await fetchBytes(body.url));
    const check = run("qpdf", ["--check", out]);
    assert.equal(check.status, 0, `${file}: qpdf --check ${check.stdout}${check.stderr}`);
    assert.equal(pages(out), body.pages, file);
    recovered++;
  }
  assert.ok(recovered >= files.length - 6, `recovered ${recovered} of ${files.length}`);
});

test("metadata: agrees with pdfinfo and pdftotext on a real PDF", async (t) => {
  if (!requireCorpus(t) || !requireTool(t, "pdfinfo") || !requireTool(t, "pdftotext")) return;
  const path = corpusPath("markdown/pymupdf/001003ED.pdf");
  const { res, body } = await post("/api/v1/analyze/metadata", form({ file: corpus("markdown/pymupdf/001003ED.pdf") }));
  assert.equal(res.status, 200);
  const info = run("pdfinfo", ["-isodates", path]).stdout;
  assert.equal(body.metadata.title, /Title:\s+(.*)/.exec(info)[1].trim());
  assert.equal(body.metadata.author, /Author:\s+(.*)/.exec(info)[1].trim());
  assert.equal(body.metadata.pages, pages(path));
  assert.equal(body.metadata.creation_date, /CreationDate:\s+(\S+)/.exec(info)[1].slice(0, 19));
  const words = run("pdftotext", [path, "-"]).stdout.split(/\s+/).filter(Boolean).length;
  assert.ok(Math.abs(body.metadata.word_count - words) / words < 0.1, `${body.metadata.word_count} vs pdftotext ${words}`);
});

// Ghostscript's documented PDF/A recipe: an sRGB OutputIntent defined in PostScript before the input.
const PDFA_DEF = (icc) => `%!
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} <</N 3>> /PUT pdfmark
[{icc_PDFA} (${icc}) (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} <</Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB)>> /PUT pdfmark
[{Catalog} <</OutputIntents [ {OutputIntent_PDFA} ]>> /PUT pdfmark
`;

test("PDF/A: a fresh Ghostscript PDF/A-2b is likely PDF/A, its plain pdfwrite twin is not", async (t) => {
  if (!requireCorpus(t) || !requireTool(t, "gs")) return;
  const icc = ["/usr/share/color/icc/ghostscript/srgb.icc", "/usr/share/ghostscript/iccprofiles/srgb.icc"].find((p) => run("test", ["-f", p]).status === 0);
  assert.ok(icc, "Ghostscript's srgb.icc not found");
  const src = save("src.pdf", corpus("pdfjs/plain/three_pages_with_number.pdf"));
  const def = save("pdfa_def.ps", PDFA_DEF(icc));
  const plain = join(dir, "plain.pdf");
  const pdfa = join(dir, "pdfa.pdf");
  assert.equal(run("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", `-sOutputFile=${plain}`, src]).status, 0);
  const gsArgs = ["-q", "-dNOPAUSE", "-dBATCH", "-dPDFA=2", "-dPDFACompatibilityPolicy=1", "-sColorConversionStrategy=RGB", "-sDEVICE=pdfwrite"];
  const made = run("gs", [...gsArgs, `--permit-file-read=${icc}`, `-sOutputFile=${pdfa}`, def, src]);
  assert.equal(made.status, 0, made.stderr);
  const yes = await post("/api/v1/pdf/pdfa/validate", form({ file: readFileSync(pdfa) }));
  const no = await post("/api/v1/pdf/pdfa/validate", form({ file: readFileSync(plain) }));
  assert.equal(yes.res.headers.get("X-Credits-Charged"), "10");
  assert.deepEqual(
    {
      likely: yes.body.likely_pdfa,
      intent: yes.body.has_output_intent,
      xmp: yes.body.has_xmp_metadata,
      part: yes.body.pdfa_part,
      conformance: yes.body.pdfa_conformance,
    },
    { likely: true, intent: true, xmp: true, part: 2, conformance: "B" },
    JSON.stringify(yes.body.issues),
  );
  assert.equal(no.body.likely_pdfa, false);
  assert.equal(no.body.has_output_intent, false);
});
