// Read form fields and Fill form over HTTP, on the bench's text documents
// with a form laid over every page (four text fields, a checkbox, a radio
// group of three and a combo box each), beside native `mutool run` filling
// the same fields through MuPDF's own JavaScript (the same library, native,
// no Worker or HTTP). Debian's mutool 1.21 has no bake() in its scripting,
// so flatten has no native peer. `npm run bench -- forms` runs this alone.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { pdfForm as form, textDocuments } from "./pdf-a/inputs.mjs";

export const title = "Forms";

const mb = (kb) => +(kb / 1024).toFixed(1);

/** The document with its fields, and the values Fill form is given for all of them. */
async function withForm(bytes) {
  const doc = await PDFDocument.load(bytes);
  const f = doc.getForm();
  const values = {};
  doc.getPages().forEach((page, p) => {
    for (let i = 0; i < 4; i++) {
      f.createTextField(`p${p}.text${i}`).addToPage(page, { x: 360, y: 780 - i * 30, width: 200, height: 20 });
      values[`p${p}.text${i}`] = `Value ${p}-${i}`;
    }
    f.createCheckBox(`p${p}.check`).addToPage(page, { x: 360, y: 640, width: 15, height: 15 });
    values[`p${p}.check`] = true;
    const radio = f.createRadioGroup(`p${p}.radio`);
    ["A", "B", "C"].forEach((o, i) => radio.addOptionToPage(o, page, { x: 360 + i * 25, y: 610, width: 15, height: 15 }));
    values[`p${p}.radio`] = "B";
    const combo = f.createDropdown(`p${p}.combo`);
    combo.addOptions(["One", "Two", "Three"]);
    combo.addToPage(page, { x: 360, y: 570, width: 120, height: 20 });
    values[`p${p}.combo`] = "Two";
  });
  return { bytes: await doc.save(), values };
}

// The peer: the same values set through MuPDF's widget calls, appearances updated, saved.
// mutool 1.21's widgets have no getName(), so the script gets each page's values in widget order (the order
// withForm adds them: four texts, the checkbox, three radio buttons, the combo box); a radio button given
// true is toggled on. Its readFile gives a buffer its scripts cannot turn into a string, so the plan is written into the script.
const WIDGETS = (p) => [0, 1, 2, 3].map((i) => `p${p}.text${i}`).concat([`p${p}.check`, "A", "B", "C", `p${p}.combo`]);
function widgetPlan(values, pages) {
  return Array.from({ length: pages }, (_, p) => WIDGETS(p).map((name) => (name.length === 1 ? values[`p${p}.radio`] === name : values[name])));
}
const mutoolFill = (plan) => `
var plan = ${JSON.stringify(plan)};
var doc = new PDFDocument(scriptArgs[0]);
for (var p = 0; p < doc.countPages(); p++) {
  var widgets = doc.loadPage(p).getWidgets();
  for (var i = 0; i < widgets.length; i++) {
    var w = widgets[i], v = plan[p][i], type = w.getFieldType();
    if (type === "text") w.setTextValue(v);
    else if (type === "combobox" || type === "listbox") w.setChoiceValue(v);
    else if (v === true) w.toggle();
    else continue;
    w.update();
  }
}
doc.save(scriptArgs[1], "garbage=compact,compress");
`;

export async function run(ctx) {
  for (const [name, plain] of (await textDocuments(ctx.corpus)).slice(0, 2)) {
    const { bytes, values } = await withForm(plain);
    const fields = Object.keys(values).length;
    const input = join(ctx.tmp, `forms-${name.replace(/\W+/g, "-")}.pdf`);
    const script = join(ctx.tmp, "forms-fill.js");
    writeFileSync(input, bytes);
    writeFileSync(script, mutoolFill(widgetPlan(values, (await PDFDocument.load(plain)).getPageCount())));
    const cases = [
      { tool: "forms read", path: "/api/v1/pdf/forms/read", fields: {} },
      { tool: "forms fill", path: "/api/v1/pdf/forms/fill", fields: { values: JSON.stringify(values) }, peer: true },
      { tool: "forms fill+flatten", path: "/api/v1/pdf/forms/fill", fields: { values: JSON.stringify(values), flatten: "true" } },
    ];
    for (const c of cases) {
      let last;
      const { result: timing, peak_mb } = await ctx.peak(() =>
        ctx.time(async () => {
          last = await ctx.post(c.path, form(bytes, c.fields));
          if (last.status !== 200) throw new Error(`${c.tool} ${name}: ${last.status} ${JSON.stringify(last.json)}`);
        }, 5),
      );
      const outBytes = last.json.file_url ? (await fetch(last.json.file_url).then((r) => r.arrayBuffer())).byteLength : undefined;
      const out = join(ctx.tmp, "forms-peer-out.pdf");
      const peer = c.peer ? ctx.native("mutool", ["run", script, input, out], { runs: 3 }) : null;
      const peerOk = peer && Number.isFinite(peer.median_ms);
      ctx.row({
        tool: c.tool,
        case: `${name}, ${fields} fields (${bytes.byteLength} B in)`,
        ms: timing.median_ms,
        bytes: outBytes,
        peak_mb,
        peer: peer ? "mutool run (widget fill)" : undefined,
        peer_ms: peer?.median_ms,
        peer_peak_mb: peer ? mb(peer.peak_kb) : undefined,
        note: !c.peer
          ? "no native peer"
          : peerOk
            ? `${(timing.median_ms / peer.median_ms).toFixed(1)}x mutool`
            : peer
              ? `mutool failed: ${peer.error}`
              : "mutool not installed",
      });
    }
  }
}
