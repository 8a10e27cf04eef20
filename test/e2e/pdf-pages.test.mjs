// Organise pages through the real bundled `wrangler dev`, its output read by
// native oracles that cannot run inside workerd: qpdf's JSON for the page
// tree (count, /Rotate, which bookmarks open each page) and poppler's
// pdftotext for the text of each page. A missing oracle fails under CI and
// skips visibly elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument, PDFHexString, PDFName, StandardFonts, degrees } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-pages-"));
before(async () => {
  srv = await startServerWithKey({ credits: 1_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Six A4 pages reading "Page N"; page 2 has /Rotate 90; a bookmark per page titled "Mark N". */
async function source() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 6; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i}`, { x: 72, y: 760, size: 18, font });
    if (i === 2) page.setRotation(degrees(90));
  }
  const ctx = doc.context;
  const root = ctx.nextRef();
  const refs = doc.getPages().map(() => ctx.nextRef());
  refs.forEach((ref, i) => {
    const item = ctx.obj({ Title: PDFHexString.fromText(`Mark ${i + 1}`), Parent: root, Dest: [doc.getPage(i).ref, "Fit"] });
    if (i > 0) item.set(PDFName.of("Prev"), refs[i - 1]);
    if (i < refs.length - 1) item.set(PDFName.of("Next"), refs[i + 1]);
    ctx.assign(ref, item);
  });
  ctx.assign(root, ctx.obj({ Type: "Outlines", First: refs[0], Last: refs[refs.length - 1], Count: refs.length }));
  doc.catalog.set(PDFName.of("Outlines"), root);
  return doc.save();
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

/** qpdf's reading of a file: per page its /Rotate and the bookmarks opening it, and the top-level bookmark titles. */
function qpdfRead(path) {
  const json = JSON.parse(run("qpdf", ["--json=2", "--json-key=pages", "--json-key=qpdf", "--json-key=outlines", path]));
  const objects = json.qpdf[1];
  return {
    pages: json.pages.map((p) => ({ rotate: objects[`obj:${p.object}`].value["/Rotate"] ?? 0, marks: p.outlines.map((o) => o.title) })),
    outline: json.outlines.map((o) => o.title),
  };
}

test("pages, delete, rotate and a blank page: qpdf sees the page tree asked for, pdftotext each page's source text", async (t) => {
  if (!requireTool(t, "qpdf") || !requireTool(t, "pdftotext")) return;
  const fd = new FormData();
  fd.append("file", new File([await source()], "six.pdf", { type: "application/pdf" }));
  fd.append("pages", "6,2,2,4-5,1");
  fd.append("delete", "5");
  fd.append("rotate", "1:90,2:90,3:-90");
  fd.append("insert_blank", "after:1");
  const res = await fetch(`${srv.base}/api/v1/pdf/pages`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  assert.equal(body.pages, 6);
  assert.equal(body.source_pages, 6);
  const file = await fetch(body.file_url);
  assert.equal(file.status, 200);
  const path = join(tmp, "out.pdf");
  writeFileSync(path, new Uint8Array(await file.arrayBuffer()));

  run("qpdf", ["--check", path]);
  const expected = [
    { source: 6, rotate: 90, marks: ["Mark 6"] },
    { source: null, rotate: 0, marks: [] },
    // Page 2 already had /Rotate 90: +90 on its first copy, -90 on its second.
    { source: 2, rotate: 180, marks: ["Mark 2"] },
    { source: 2, rotate: 0, marks: [] },
    { source: 4, rotate: 0, marks: ["Mark 4"] },
    { source: 1, rotate: 0, marks: ["Mark 1"] },
  ];
  const { pages, outline } = qpdfRead(path);
  // Bookmarks keep their order; those of the deleted and unselected pages (3, 5) are gone.
  assert.deepEqual(outline, ["Mark 1", "Mark 2", "Mark 4", "Mark 6"]);
  assert.equal(pages.length, expected.length);
  expected.forEach((want, i) => {
    assert.equal(pages[i].rotate, want.rotate, `/Rotate of page ${i + 1}`);
    assert.deepEqual(pages[i].marks, want.marks, `bookmarks opening page ${i + 1}`);
    const text = run("pdftotext", ["-f", String(i + 1), "-l", String(i + 1), path, "-"]).trim();
    assert.equal(text, want.source === null ? "" : `Page ${want.source}`, `text of page ${i + 1}`);
  });
});
