// Issue #31 through the real bundled `wrangler dev`: uploads that cost far
// more memory than their size (30 MB of newlines, 30 MB on one line, a 240 KB
// DOCX that inflates to 240 MB, a ZIP whose directory lies) are refused fast
// and free, and workerd's own peak resident memory (VmHWM of the workerd
// process, read from /proc) barely moves while they are. Local workerd
// enforces no isolate limit, so this peak is where a bomb would show.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { requireTool, startServerWithKey } from "./server.mjs";

const MiB = 1024 * 1024;
const MB = 1_000_000;
/** How much workerd's peak may grow while every bomb is sent: the bodies themselves (30 MB, buffered and parsed) fit in it, an expansion does not. */
const MAX_GROWTH = 128 * MiB;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const DOCUMENT =
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-bombs-"));
// The bombs are made before the server starts: deflating 240 MB takes seconds,
// and a keep-alive connection the server closed meanwhile fails the next write.
let bomb;
let liar;
before(async () => {
  bomb = docxBomb();
  liar = lyingDocx();
  srv = await startServerWithKey({ credits: 100_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Every process below `pid` (the server's group leader), found by walking `pgrep -P`. */
function descendants(pid) {
  const r = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  const kids = r.stdout.split("\n").filter(Boolean).map(Number);
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

/** VmHWM and VmRSS (bytes) of each workerd process of the server. */
function workerdMemory() {
  const out = [];
  for (const pid of descendants(srv.pid)) {
    let status;
    try {
      status = readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      continue;
    }
    if (!/^Name:\s*workerd/m.test(status)) continue;
    const kb = (key) => Number(new RegExp(`^${key}:\\s*(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    out.push({ pid, hwm: kb("VmHWM"), rss: kb("VmRSS") });
  }
  assert.ok(out.length > 0, "no workerd process found under the server");
  return out;
}

const peak = () => Math.max(...workerdMemory().map((p) => p.hwm));

async function convert(bytes, name, target, key) {
  const fd = new FormData();
  fd.append("file", new File([bytes], name));
  fd.append("target_format", target);
  const started = Date.now();
  const res = await fetch(`${srv.base}/api/v1/conversion/single`, { method: "POST", body: fd, headers: key ? { "X-API-Key": key } : {} });
  const body = await res.json();
  return { res, body, ms: Date.now() - started };
}

/** A valid DOCX with a media part of 240 MB of zeros: about 240 KB deflated. */
function docxBomb() {
  return zipSync(
    { "[Content_Types].xml": strToU8(CONTENT_TYPES), "word/document.xml": strToU8(DOCUMENT), "word/media/zero.bin": new Uint8Array(240 * MiB) },
    { level: 9 },
  );
}

/** A DOCX whose directory says its 50 MB media part is 1 KB (it comes first in the ZIP). */
function lyingDocx() {
  const zip = zipSync(
    { "word/media/zero.bin": new Uint8Array(50 * MiB), "[Content_Types].xml": strToU8(CONTENT_TYPES), "word/document.xml": strToU8(DOCUMENT) },
    { level: 9 },
  );
  const view = new DataView(zip.buffer);
  for (let i = zip.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      view.setUint32(view.getUint32(i + 16, true) + 24, 1024, true);
      break;
    }
  }
  view.setUint32(22, 1024, true);
  return zip;
}

const assertRefused = ({ res, body, ms }, what, statuses = [413, 422]) => {
  assert.ok(statuses.includes(res.status), `${what}: ${res.status} ${JSON.stringify(body)}`);
  assert.match(res.headers.get("content-type") ?? "", /application\/problem\+json/, what);
  assert.equal(res.headers.get("x-credits-charged"), "0", what);
  assert.ok(ms < 5000, `${what} took ${ms} ms`);
};

test("text and ZIP bombs are refused fast and free, and workerd's peak memory barely moves", async (t) => {
  // A first ordinary call brings MuPDF up: its heap is not what is measured.
  const warm = await convert(strToU8("warm up\n".repeat(200)), "warm.txt", "pdf");
  assert.equal(warm.res.status, 200, JSON.stringify(warm.body));
  const idle = peak();
  // Receiving a 30 MB upload costs workerd about 85 MiB of peak by itself (the
  // body, its multipart parse, the File's bytes), before any engine sees it:
  // the same bytes refused at validation (no such pair) set the baseline.
  const baseline = await convert(new Uint8Array(30 * MB).fill(0x0a), "newlines.txt", "docx");
  assert.equal(baseline.body.code, "unsupported_conversion");
  const start = peak();

  const newlines = await convert(new Uint8Array(30 * MB).fill(0x0a), "newlines.txt", "pdf");
  assertRefused(newlines, "30 MB of newlines");
  assert.equal(newlines.body.code, "too_many_pages");
  const oneLine = await convert(new Uint8Array(30 * MB).fill(0x61), "one-line.txt", "pdf");
  assertRefused(oneLine, "30 MB on one line");
  const afterText = peak();

  assert.ok(bomb.byteLength < 400_000, `the bomb is ${bomb.byteLength} bytes`);
  for (const target of ["pdf", "txt", "md"]) assertRefused(await convert(bomb, "bomb.docx", target, srv.apiKey), `DOCX bomb → ${target}`);
  for (const target of ["txt", "pdf"]) {
    const r = await convert(liar, "liar.docx", target, srv.apiKey);
    assertRefused(r, `lying DOCX → ${target}`, [422]);
    assert.equal(r.body.code, "unreadable_document");
  }
  const assets = new FormData();
  assets.append("html", "<p>x</p>");
  assets.append("assets", new File([bomb], "assets.zip", { type: "application/zip" }));
  const started = Date.now();
  const html = await fetch(`${srv.base}/api/v1/html/to-pdf`, { method: "POST", body: assets, headers: { "X-API-Key": srv.apiKey } });
  assertRefused({ res: html, body: await html.json(), ms: Date.now() - started }, "assets ZIP bomb", [413]);
  const end = peak();

  t.diagnostic(
    `workerd VmHWM: ${(idle / MiB).toFixed(0)} MiB idle, ${(start / MiB).toFixed(0)} after a 30 MB upload refused at validation, ${(afterText / MiB).toFixed(0)} after the text bombs, ${(end / MiB).toFixed(0)} after the ZIP bombs (+${((end - start) / MiB).toFixed(0)} MiB)`,
  );
  assert.ok(end - start < MAX_GROWTH, `workerd's peak grew by ${((end - start) / MiB).toFixed(0)} MiB`);
});

test("an ordinary multi-page text still converts: pdfinfo counts its pages", async (t) => {
  if (!requireTool(t, "pdfinfo")) return;
  // 48 rows a page (text-bounds.ts): 500 short lines are 11 pages.
  const text = Array.from({ length: 500 }, (_, i) => `Line ${i + 1} of an ordinary note.`).join("\n");
  const { res, body } = await convert(strToU8(text), "notes.txt", "pdf", srv.apiKey);
  assert.equal(res.status, 200, JSON.stringify(body));
  const pdf = await fetch(body.output_file_url);
  const file = join(tmp, "notes.pdf");
  writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  assert.equal(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]), 11, info);
  const words = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
  assert.match(words, /Line 500 of an ordinary note\./);
});
