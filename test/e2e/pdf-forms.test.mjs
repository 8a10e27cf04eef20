// Read form fields and Fill form through the real bundled `wrangler dev`,
// outputs judged by native oracles: qpdf's JSON (each filled widget has an
// /AP; after flatten no AcroForm fields remain) and pdftotext (flattened
// values are page text). A missing oracle fails under CI and skips visibly
// elsewhere (requireTool).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { formPdf } from "../support/pdf.mjs";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-pdf-forms-"));
before(async () => {
  srv = await startServerWithKey({ credits: 10_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const VALUES = { "person.name": "Grace", notes: "first line\nsecond line", agree: true, size: "L", color: "Blue", fruits: ["Banana", "Cherry"] };

async function fill(fields) {
  const fd = new FormData();
  fd.append("file", new File([await formPdf()], "form.pdf", { type: "application/pdf" }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = await fetch(`${srv.base}/api/v1/pdf/forms/fill`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(res.headers.get("X-Credits-Charged"), "10");
  const file = await fetch(body.file_url);
  assert.equal(file.status, 200);
  const path = join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, new Uint8Array(await file.arrayBuffer()));
  return { body, path };
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

/** qpdf's view of the form: its fields and the object of each widget. */
function qpdfForm(path) {
  const json = JSON.parse(run("qpdf", ["--json=2", "--json-key=acroform", "--json-key=qpdf", path]));
  return { acroform: json.acroform, objects: json.qpdf[1] };
}

test("fill: qpdf sees the values and an /AP on every filled widget", async (t) => {
  if (!requireTool(t, "qpdf")) return;
  const { body, path } = await fill({ values: JSON.stringify(VALUES) });
  assert.equal(body.fields_filled, 6);
  const { acroform, objects } = qpdfForm(path);
  assert.equal(acroform.hasacroform, true);
  const byName = new Map();
  for (const f of acroform.fields) byName.set(f.fullname, [...(byName.get(f.fullname) ?? []), f]);
  // Every field of the form is still there: those filled and the read-only id, which keeps its value.
  assert.deepEqual([...byName.keys()].sort(), [...Object.keys(VALUES), "id"].sort());
  assert.equal(byName.get("id")[0].value, "u:A-1");
  for (const [name, widgets] of byName) {
    if (!(name in VALUES)) continue;
    for (const w of widgets) {
      const widget = objects[`obj:${w.annotation.object}`].value;
      assert.ok(widget["/AP"]?.["/N"], `${name}: no /AP /N on ${w.annotation.object}`);
    }
  }
  assert.equal(byName.get("person.name")[0].value, "u:Grace");
  assert.equal(byName.get("color")[0].value, "u:Blue");
  assert.equal(byName.get("agree")[0].value, "/Yes");
  // pdf-lib's radio states are /0 /1 /2; L is the third.
  assert.deepEqual(
    byName.get("size").map((w) => w.annotation.appearancestate),
    ["/Off", "/Off", "/2"],
  );
});

test("flatten: pdftotext reads the values, qpdf finds no AcroForm fields", async (t) => {
  if (!requireTool(t, "qpdf") || !requireTool(t, "pdftotext")) return;
  const { body, path } = await fill({ values: JSON.stringify(VALUES), flatten: "true" });
  assert.equal(body.flattened, true);
  const { acroform } = qpdfForm(path);
  assert.equal(acroform.fields.length, 0);
  // Spacing and wrapping are the appearance's layout; the words and their order are the values.
  const text = run("pdftotext", [path, "-"]).replace(/\s+/g, " ");
  for (const v of ["Grace", "first line", "second line", "Blue", "Banana", "Cherry"]) assert.ok(text.includes(v), `${v} not in:\n${text}`);
  run("qpdf", ["--check", path]);
});
