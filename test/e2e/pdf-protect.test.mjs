// Protect PDF through the real bundled `wrangler dev`, its output read by
// native oracles that cannot run inside workerd: qpdf reports the encryption
// and the permission bits and checks the file with each password, poppler's
// pdftotext reads the text back with the user password. A missing oracle
// fails under CI and skips visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-protect-"));
before(async () => {
  srv = await startServerWithKey({ credits: 10_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const LINES = ["Quarterly figures", "Revenue grew by 12 percent", "Page one of two"];

async function makePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 2; p++) {
    const page = doc.addPage([595, 842]);
    LINES.forEach((l, i) => page.drawText(l, { x: 40, y: 780 - i * 20, size: 12, font, color: rgb(0, 0, 0) }));
  }
  return doc.save();
}

async function protect(fields) {
  const fd = new FormData();
  fd.append("file", new File([await makePdf()], "figures.pdf", { type: "application/pdf" }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}/api/v1/pdf/protect`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  const file = await fetch(body.file_url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("Content-Type"), "application/pdf");
  const path = join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, new Uint8Array(await file.arrayBuffer()));
  return { body, path };
}

const qpdf = (args) => spawnSync("qpdf", args, { encoding: "utf8" });

// qpdf --show-encryption's line for each permission we name.
const SHOWN = {
  "print low resolution": "print",
  "print high resolution": "print_high_quality",
  "extract for any purpose": "copy",
  "modify other": "modify",
  "modify annotations": "annotate",
  "modify forms": "fill_forms",
  "extract for accessibility": "extract_for_accessibility",
  "modify document assembly": "assemble",
};

/** What qpdf reads from the file opened with `password`: R, the stream cipher, which password matched, the permissions granted. */
function showEncryption(path, password) {
  const r = qpdf(["--show-encryption", `--password=${password}`, path]);
  assert.equal(r.status, 0, r.stderr);
  const granted = [];
  for (const [line, name] of Object.entries(SHOWN)) {
    const m = new RegExp(`^${line}: (allowed|not allowed)$`, "m").exec(r.stdout);
    assert.ok(m, `${line} in\n${r.stdout}`);
    if (m[1] === "allowed") granted.push(name);
  }
  return {
    revision: /^R = (\d+)$/m.exec(r.stdout)?.[1],
    cipher: /^stream encryption method: (\S+)$/m.exec(r.stdout)?.[1],
    supplied: /^Supplied password is (\w+) password$/m.exec(r.stdout)?.[1],
    granted: granted.sort(),
  };
}

const sorted = (list) => [...list].sort();

test("AES-256 by default: qpdf sees R6 AESv3 and exactly the permissions asked for; --check passes with the password, fails with a wrong one; pdftotext -upw reads the text", async (t) => {
  if (!requireTool(t, "qpdf") || !requireTool(t, "pdftotext")) return;
  const { body, path } = await protect({ user_password: "reader pw", owner_password: "author pw", permissions: "print,copy" });
  assert.equal(body.encryption, "aes-256");
  const asked = ["print", "copy", "extract_for_accessibility"];
  assert.deepEqual(sorted(body.permissions), sorted(asked));

  const user = showEncryption(path, "reader pw");
  assert.deepEqual(user, { revision: "6", cipher: "AESv3", supplied: "user", granted: sorted(asked) });
  assert.equal(showEncryption(path, "author pw").supplied, "owner");

  assert.equal(qpdf(["--check", "--password=reader pw", path]).status, 0);
  assert.equal(qpdf(["--check", "--password=author pw", path]).status, 0);
  const wrong = qpdf(["--check", "--password=wrong", path]);
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stderr, /invalid password/i);

  const text = spawnSync("pdftotext", ["-upw", "reader pw", path, "-"], { encoding: "utf8" });
  assert.equal(text.status, 0, text.stderr);
  for (const line of LINES) assert.ok(text.stdout.includes(line), `${line} in ${text.stdout}`);
  assert.notEqual(spawnSync("pdftotext", [path, "-"], { encoding: "utf8" }).status, 0, "pdftotext opened it without a password");
});

test("AES-128 on request: qpdf sees R4 AESv2 and exactly the permissions asked for", async (t) => {
  if (!requireTool(t, "qpdf")) return;
  const { path } = await protect({ user_password: "u128", owner_password: "o128", encryption: "aes-128", permissions: "annotate,fill_forms,assemble,print" });
  assert.deepEqual(showEncryption(path, "u128"), {
    revision: "4",
    cipher: "AESv2",
    supplied: "user",
    granted: sorted(["print", "annotate", "fill_forms", "assemble", "extract_for_accessibility"]),
  });
  assert.equal(qpdf(["--check", "--password=u128", path]).status, 0);
  assert.notEqual(qpdf(["--check", "--password=wrong", path]).status, 0);
});

test("every permission alone, all by default, none: qpdf reads back exactly that set", async (t) => {
  if (!requireTool(t, "qpdf")) return;
  const cases = [
    ["print", ["print"]],
    ["print,print_high_quality", ["print", "print_high_quality"]],
    ["copy", ["copy"]],
    ["modify", ["modify"]],
    ["annotate", ["annotate"]],
    ["fill_forms", ["fill_forms"]],
    ["assemble", ["assemble"]],
    ["none", []],
    [undefined, Object.values(SHOWN)],
  ];
  for (const [permissions, granted] of cases) {
    const { path } = await protect({ user_password: "u", owner_password: "o", ...(permissions ? { permissions } : {}) });
    const expected = sorted(new Set([...granted, "extract_for_accessibility"]));
    assert.deepEqual(showEncryption(path, "u").granted, expected, String(permissions));
  }
});

test("only an owner password: qpdf opens the file without one, with the restrictions; pdftotext reads it", async (t) => {
  if (!requireTool(t, "qpdf") || !requireTool(t, "pdftotext")) return;
  const { body, path } = await protect({ owner_password: "author", permissions: "print" });
  assert.equal(body.requires_password_to_open, false);
  assert.equal(qpdf(["--is-encrypted", path]).status, 0);
  assert.deepEqual(showEncryption(path, "").granted, sorted(["print", "extract_for_accessibility"]));
  assert.equal(qpdf(["--check", path]).status, 0);
  const text = spawnSync("pdftotext", [path, "-"], { encoding: "utf8" });
  assert.equal(text.status, 0, text.stderr);
  assert.ok(text.stdout.includes(LINES[1]), text.stdout);
});
