import type { PDFWidget } from "mupdf";
import { saveCopy, withPdf, type PDFDocument } from "../core/document";
import { SAVE } from "../core/save-options";
import { isXfaOnly, readFields } from "./fields";
import { listBoxAppearance, listFont } from "./list-appearance";
import { type FieldChange, type FieldInput, type FillProblem, planFill } from "./plan";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

export interface FillOptions {
  /** Turn the fields into page content and remove the form. */
  flatten: boolean;
  /** With flatten: every other annotation too (comments, stamps, drawings). */
  flattenAnnotations: boolean;
}

export type FillOutcome =
  | { ok: true; data: Uint8Array; fieldsFilled: number; pages: number; flattened: boolean }
  | { ok: false; problems: FillProblem[] }
  /** An XFA form without AcroForm widgets: nothing here can fill it. */
  | { ok: false; xfaOnly: true };

/**
 * Fills AcroForm fields and writes each filled widget's appearance stream,
 * so viewers that ignore /NeedAppearances (most previewers, print paths)
 * show the values; then optionally bakes the appearances into the pages.
 * Nothing is written when any value is refused.
 */
export async function fillForm(bytes: Uint8Array, values: Record<string, FieldInput>, opts: FillOptions): Promise<FillOutcome> {
  return withPdf(bytes, (doc, mupdf) => {
    const fields = readFields(doc);
    if (isXfaOnly(doc, fields)) return { ok: false, xfaOnly: true };
    const plan = planFill(fields, values);
    if (!plan.ok) return plan;
    const font = listFont(mupdf, doc);
    for (const change of plan.changes) apply(doc, change, font);
    const acro = doc.getTrailer().get("Root").get("AcroForm");
    // A hybrid form's XFA copy would keep its old values in viewers that prefer XFA (Acrobat); the AcroForm is now the form.
    if (plan.changes.length && acro.isDictionary()) acro.delete("XFA");
    if (opts.flatten) flatten(doc, opts.flattenAnnotations);
    return { ok: true, data: saveCopy(doc, SAVE.edited), fieldsFilled: plan.changes.length, pages: doc.countPages(), flattened: opts.flatten };
  });
}

function apply(doc: PDFDocument, change: FieldChange, font: () => PDFObject): void {
  const widgets = change.field.handles;
  switch (change.kind) {
    case "text":
      // Setting it through each widget marks each one's appearance for regeneration.
      for (const w of widgets) w.setTextValue(change.value);
      break;
    case "choice":
      for (const w of widgets) w.setChoiceValue(change.value);
      break;
    case "choices":
      setChoices(
        doc,
        widgets,
        change.field.options.map((o) => o.value),
        change.value,
      );
      break;
    case "state":
      setState(doc, widgets, change.value);
      break;
  }
  for (const w of widgets) w.update();
  if (change.kind === "choices") {
    const { options } = change.field;
    const chosen = new Set(change.value.map((v) => options.findIndex((o) => o.value === v)));
    for (const w of widgets)
      listBoxAppearance(
        doc,
        w,
        options.map((o) => o.label),
        chosen,
        font,
      );
  }
}

/**
 * MuPDF sets one choice; a multi-select list box stores an array in /V and
 * the chosen indexes, ascending, in /I (ISO 32000-1, table 231).
 */
function setChoices(doc: PDFDocument, widgets: PDFWidget[], options: string[], chosen: string[]): void {
  for (const w of widgets) w.setChoiceValue(chosen[0] ?? "");
  const node = fieldNode(widgets[0].getObject());
  if (chosen.length === 0) {
    node.delete("V");
    node.delete("I");
    return;
  }
  if (chosen.length > 1) {
    const v = doc.newArray();
    for (const c of chosen) v.push(doc.newString(c));
    node.put("V", v);
  }
  const indexes = doc.newArray();
  for (const i of chosen.map((c) => options.indexOf(c)).sort((a, b) => a - b)) indexes.push(i);
  node.put("I", indexes);
}

/**
 * A checkbox or radio group: /V names the chosen state on the field, and
 * each widget shows it (/AS) when its appearance dictionary has that state,
 * /Off otherwise. The state appearances already exist: choosing one is the
 * appearance change.
 */
function setState(doc: PDFDocument, widgets: PDFWidget[], state: string): void {
  const name = doc.newName(state);
  fieldNode(widgets[0].getObject()).put("V", name);
  for (const w of widgets) {
    const obj = w.getObject();
    const normal = obj.get("AP").get("N");
    const has = normal.isDictionary() && !normal.get(state).isNull();
    obj.put("AS", doc.newName(has ? state : "Off"));
  }
}

/** The terminal field a widget belongs to: itself when merged with it (it has /T), else its parent. */
function fieldNode(widget: PDFObject): PDFObject {
  if (!widget.get("T").isNull()) return widget;
  const parent = widget.get("Parent");
  return parent.isNull() ? widget : parent;
}

/**
 * Bakes widget appearances (and, if asked, every other annotation's) into
 * the page content. MuPDF drops /AcroForm when it bakes widgets; deleting
 * it again covers a form whose fields had no widget to bake.
 */
function flatten(doc: PDFDocument, annotations: boolean): void {
  doc.bake(annotations, true);
  doc.getTrailer().get("Root").delete("AcroForm");
}
