// Edit metadata and Attachments through the real bundled `wrangler dev`,
// outputs checked with poppler, which shares no code with MuPDF: pdfinfo
// reads the Info dictionary and (-meta) the XMP packet, pdfdetach lists and
// saves the embedded files; qpdf --check judges the file's structure.
// A missing oracle fails under CI and skips visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-edit-"));
before(async () => {
  srv = await startServerWithKey({ credits: 10_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function makePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Body text", { x: 40, y: 780, size: 12, font });
  doc.setTitle("Old title");
  return doc.save();
}

async function post(fields) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
  const res = await fetch(`${srv.base}/api/v1/pdf/${fields.action ? "attachments" : "metadata"}`, {
    method: "POST",
    body: fd,
    headers: { "X-API-Key": srv.apiKey },
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  return body;
}

async function save(url, name) {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  const path = join(tmp, name);
  writeFileSync(path, new Uint8Array(await res.arrayBuffer()));
  return path;
}

const part = (bytes, name, type) => new File([bytes], name, { type });
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};
/** "Title:          Report" lines of pdfinfo, as a map. */
const fieldsOf = (out) => Object.fromEntries(out.split("\n").flatMap((l) => (/^([A-Za-z]+):\s+(.*)$/.exec(l) ? [[RegExp.$1, RegExp.$2.trim()]] : [])));
const xmpValue = (xmp, q) => {
  const m = new RegExp(`<${q}(?:\\s[^>]*)?>([\\s\\S]*?)</${q}>`).exec(xmp);
  if (!m) return null;
  const li = /<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/.exec(m[1]);
  return (li ? li[1] : m[1]).trim().replace(/&amp;/g, "&");
};

test("edit metadata: pdfinfo shows every field set, and the XMP packet (pdfinfo -meta) agrees", async (t) => {
  if (!requireTool(t, "pdfinfo") || !requireTool(t, "qpdf")) return;
  const body = await post({
    file: part(await makePdf(), "in.pdf", "application/pdf"),
    title: "Quarterly report & summary",
    author: "Ann Example",
    subject: "Revenue",
    keywords: "finance, q3",
    creator: "Report Builder",
    producer: "Edit Producer",
    creation_date: "2024-05-01T10:20:30+02:00",
    modification_date: "2024-06-02T08:09:10Z",
    language: "en-GB",
    custom: JSON.stringify({ Department: "Legal" }),
  });
  const path = await save(body.file_url, "meta.pdf");
  run("qpdf", ["--check", path]);
  const info = fieldsOf(run("pdfinfo", ["-isodates", "-custom", path]));
  assert.equal(info.Title, "Quarterly report & summary");
  assert.equal(info.Author, "Ann Example");
  assert.equal(info.Subject, "Revenue");
  assert.equal(info.Keywords, "finance, q3");
  assert.equal(info.Creator, "Report Builder");
  assert.equal(info.Producer, "Edit Producer");
  assert.equal(info.Department, "Legal");
  assert.match(info.CreationDate, /^2024-05-01T10:20:30\+02(:?00)?$/);
  assert.match(info.ModDate, /^2024-06-02T08:09:10(Z|\+00(:?00)?)$/);
  const xmp = run("pdfinfo", ["-meta", path]);
  assert.equal(xmpValue(xmp, "dc:title"), "Quarterly report & summary");
  assert.equal(xmpValue(xmp, "dc:creator"), "Ann Example");
  assert.equal(xmpValue(xmp, "dc:description"), "Revenue");
  assert.equal(xmpValue(xmp, "pdf:Keywords"), "finance, q3");
  assert.equal(xmpValue(xmp, "xmp:CreatorTool"), "Report Builder");
  assert.equal(xmpValue(xmp, "pdf:Producer"), "Edit Producer");
  assert.equal(xmpValue(xmp, "xmp:CreateDate"), "2024-05-01T10:20:30+02:00");
  assert.equal(xmpValue(xmp, "xmp:ModifyDate"), "2024-06-02T08:09:10Z");
  assert.equal(xmpValue(xmp, "dc:language"), "en-GB");

  // Removal: pdfinfo no longer shows the field, and the packet no longer holds it.
  const removed = await post({ file: part(readFileSync(path), "meta.pdf", "application/pdf"), title: "", keywords: "" });
  const path2 = await save(removed.file_url, "meta2.pdf");
  const info2 = fieldsOf(run("pdfinfo", [path2]));
  assert.equal(info2.Title, undefined);
  assert.equal(info2.Keywords, undefined);
  assert.equal(info2.Author, "Ann Example");
  const xmp2 = run("pdfinfo", ["-meta", path2]);
  assert.equal(xmpValue(xmp2, "dc:title"), null);
  assert.equal(xmpValue(xmp2, "pdf:Keywords"), null);
  assert.equal(xmpValue(xmp2, "dc:creator"), "Ann Example");
});

test("attachments: pdfdetach -list shows what was added and -saveall gives identical bytes; extract agrees", async (t) => {
  if (!requireTool(t, "pdfdetach") || !requireTool(t, "qpdf")) return;
  const xml = new TextEncoder().encode(`<?xml version="1.0"?><invoice>${"<line/>".repeat(300)}</invoice>`);
  const bin = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);
  const body = await post({
    file: part(await makePdf(), "in.pdf", "application/pdf"),
    action: "add",
    attachments: [part(xml, "factur-x.xml", "text/xml"), part(bin, "data.bin", "application/octet-stream")],
    description: ["The invoice", "Raw data"],
    relationship: "Data",
  });
  const path = await save(body.file_url, "attached.pdf");
  run("qpdf", ["--check", path]);
  const list = run("pdfdetach", ["-list", path]);
  assert.match(list, /^2 embedded files/m);
  assert.match(list, /factur-x\.xml/);
  assert.match(list, /data\.bin/);
  const dir = join(tmp, "saved");
  mkdirSync(dir);
  run("pdfdetach", ["-saveall", "-o", dir, path]);
  assert.deepEqual(readdirSync(dir).sort(), ["data.bin", "factur-x.xml"]);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, "factur-x.xml"))), xml);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, "data.bin"))), bin);
  // qpdf reads the same files, with their relationship-independent filespecs.
  const qpdfList = run("qpdf", ["--list-attachments", "--verbose", path]);
  assert.match(qpdfList, /factur-x\.xml/);
  assert.match(qpdfList, /text\/xml/);

  const one = await post({ file: part(readFileSync(path), "attached.pdf", "application/pdf"), action: "extract", name: "data.bin" });
  const got = await fetch(one.file_url);
  assert.deepEqual(new Uint8Array(await got.arrayBuffer()), bin);
});
