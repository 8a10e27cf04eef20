// PDF toolkit B through the real bundled `wrangler dev`: watermarks, page
// numbers and redaction over HTTP, outputs checked with native oracles that
// cannot run inside workerd (poppler's pdftotext/pdffonts/pdfimages, qpdf).
// A missing oracle fails under CI and skips visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-b-"));
before(async () => {
  srv = await startServerWithKey({ credits: 10_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function makePdf(lines, pages = 1) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    lines.forEach((l, i) => page.drawText(l, { x: 40, y: 780 - i * 20, size: 12, font, color: rgb(0, 0, 0) }));
  }
  return doc;
}

async function post(path, fields) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}${path}`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const file = await fetch(body.url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("Content-Type"), "application/pdf");
  const path_ = join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path_, new Uint8Array(await file.arrayBuffer()));
  return { body, res, path: path_ };
}

const pdfPart = (bytes, name = "in.pdf") => new File([bytes], name, { type: "application/pdf" });
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

test("text watermark: pdffonts sees embedded subset fonts per script, pdftotext reads the text, Arabic is shaped", async (t) => {
  if (!requireTool(t, "pdffonts") || !requireTool(t, "pdftotext")) return;
  const text = "Café Конфиденциально Ελληνικά سري للغاية 机密 社外秘 대외비";
  const { path, res } = await post("/api/v1/watermark/text", {
    file: pdfPart(await (await makePdf(["Body"], 2)).save()),
    text,
    opacity: "0.5",
    font_size: "14",
  });
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  const fonts = run("pdffonts", [path]);
  for (const name of ["Noto Sans Arabic", "Droid Sans Fallback", "Nimbus Sans"]) {
    const line = fonts.split("\n").find((l) => l.includes(name));
    assert.ok(line, `${name} in\n${fonts}`);
    // Columns emb, sub, uni: embedded, subset, with a ToUnicode map.
    assert.match(line, /yes\s+yes\s+yes/, line);
  }
  for (const page of ["1", "2"]) {
    const out = run("pdftotext", ["-f", page, "-l", page, path, "-"]);
    // Shaped Arabic comes back as contextual presentation forms (U+FE70-U+FEFF): HarfBuzz joined the letters.
    assert.match(out, /[\uFE70-\uFEFF]/u, out);
    const plain = out.normalize("NFKC").replace(/\s+|[\u200e\u200f\u202a-\u202e]/g, "");
    for (const word of ["Café", "Конфиденциально", "Ελληνικά", "سري", "للغاية", "机密", "社外秘", "대외비", "Body"]) {
      assert.ok(plain.includes(word), `${word} on page ${page}: ${out}`);
    }
  }
});

test("image watermark: pdfimages lists the downscaled image with its alpha mask; qpdf --check passes", async (t) => {
  if (!requireTool(t, "pdfimages") || !requireTool(t, "qpdf")) return;
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 2000, 500], true);
  // clear() leaves the alpha samples opaque; a stamp with real transparency needs them set, or a
  // correct writer (the image engine shrinks stamps over 1000 px) rightly drops the alpha channel.
  pix.clear(128);
  const samples = pix.getPixels();
  for (let i = 3; i < samples.length; i += 4) samples[i] = 128;
  const png = pix.asPNG().slice();
  pix.destroy();
  const { path, body } = await post("/api/v1/watermark/image", {
    file: pdfPart(await (await makePdf(["Body"], 3)).save()),
    watermark: new File([png], "w.png"),
    tile: "true",
  });
  assert.equal(body.meta.pages_watermarked, 3);
  const list = run("pdfimages", ["-list", path]);
  const rows = list
    .trim()
    .split("\n")
    .slice(2)
    .map((l) => l.trim().split(/\s+/));
  // Columns: page num type width height color comp bpc enc interp object ID ...
  assert.ok(
    rows.some((r) => r[2] === "image" && r[3] === "1000" && r[4] === "250"),
    list,
  );
  assert.ok(
    rows.some((r) => r[2] === "smask" && r[3] === "1000" && r[4] === "250"),
    list,
  );
  // Tiled over three pages but stored once: every listed use names the same object.
  assert.deepEqual([...new Set(rows.map((r) => r[10]))].length, 1, list);
  assert.deepEqual([...new Set(rows.map((r) => r[0]))].sort(), ["1", "2", "3"], list);
  run("qpdf", ["--check", path]);
});

test("page numbers: pdftotext finds each label on its page", async (t) => {
  if (!requireTool(t, "pdftotext") || !requireTool(t, "pdfinfo")) return;
  const { path, body } = await post("/api/v1/pdf/page-numbers", {
    file: pdfPart(await (await makePdf(["Body"], 4)).save()),
    fmt: "Page {ROMAN} of {total}",
    first_page: "2",
  });
  assert.equal(body.success, true);
  assert.match(run("pdfinfo", [path]), /Pages:\s+4/);
  const labels = ["", "Page I of 3", "Page II of 3", "Page III of 3"];
  labels.forEach((label, i) => {
    const out = run("pdftotext", ["-f", String(i + 1), "-l", String(i + 1), path, "-"]);
    if (label) assert.ok(out.includes(label), out);
    else assert.ok(!out.includes("Page"), out);
  });
});

test("redact: pdftotext no longer finds the PII, the rest of the text and the image stay", async (t) => {
  if (!requireTool(t, "pdftotext") || !requireTool(t, "pdfimages") || !requireTool(t, "qpdf")) return;
  const secrets = [
    "4111 1111 1111 1111",
    "3123 4567 8909",
    "DE89 3704 0044 0532 0130 00",
    "078-05-1123",
    "912-70-1234",
    "ABCPD1234Z",
    "jane.doe@example.org",
    "192.168.10.254",
    "+44 20 7946 0958",
  ];
  const doc = await makePdf(secrets.map((s, i) => `Item ${i}: ${s} kept`));
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 64, 64], false);
  pix.clear(200);
  const image = await doc.embedPng(pix.asPNG().slice());
  pix.destroy();
  doc.getPage(0).drawImage(image, { x: 300, y: 600, width: 200, height: 200 });
  const input = await doc.save();
  const { path, body, res } = await post("/api/v1/redact", { file: pdfPart(input) });
  assert.equal(res.headers.get("X-Credits-Charged"), "40");
  assert.equal(body.text_fully_removed, true);
  assert.equal(body.redactions_made, 9);
  const inPath = join(tmp, "redact-in.pdf");
  writeFileSync(inPath, input);
  const before = run("pdftotext", [inPath, "-"]);
  const text = run("pdftotext", [path, "-"]);
  for (const s of secrets) {
    assert.ok(before.includes(s), `sanity: ${s} readable before`);
    assert.ok(!text.includes(s), `${s} still in:\n${text}`);
  }
  for (let i = 0; i < secrets.length; i++) assert.ok(text.includes(`Item ${i}:`), text);
  assert.match(run("pdfimages", ["-list", path]), /\s64\s+64\s/);
  run("qpdf", ["--check", path]);
});

test("GET /api/v1/redact/entity-types without credentials", async () => {
  const res = await fetch(`${srv.base}/api/v1/redact/entity-types`);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(body.entity_types, [...body.entity_types].sort());
  assert.equal(body.entity_types.length, 9);
});
