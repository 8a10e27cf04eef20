import type { PDFWidget } from "mupdf";
import type { PDFDocument } from "../core/document";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

export type FieldType = "text" | "checkbox" | "radio" | "combo" | "list" | "button" | "signature";

/** MuPDF's widget type names, in ours. */
const TYPES: Record<string, FieldType> = {
  text: "text",
  checkbox: "checkbox",
  radiobutton: "radio",
  combobox: "combo",
  listbox: "list",
  button: "button",
  signature: "signature",
};

// Field flag bits (ISO 32000-1, tables 221, 226, 228, 230).
const READ_ONLY = 1;
const REQUIRED = 1 << 1;
const MULTILINE = 1 << 12;
const COMBO_EDIT = 1 << 18;
const MULTI_SELECT = 1 << 21;

export interface FieldOption {
  /** The value written to /V: a choice's export value, a button's on-state name. */
  value: string;
  /** What a reader sees: a choice's display text, a button's /Opt export value (the state name without one). */
  label: string;
}

export interface WidgetPlace {
  /** 1-based page number. */
  page: number;
  /** The widget's /Rect [x0, y0, x1, y1] in the page's default user space (points, y up). */
  rect: [number, number, number, number];
}

/** One AcroForm field as read, with its widgets (several for radio groups and repeated fields). */
export interface FormField {
  name: string;
  type: FieldType;
  value: string | string[];
  options: FieldOption[];
  required: boolean;
  readOnly: boolean;
  maxLength: number | null;
  multiline: boolean;
  multiSelect: boolean;
  /** An editable combo box accepts text outside its options. */
  editable: boolean;
  widgets: WidgetPlace[];
  /** MuPDF's widget objects, in page order (valid while the document is open). */
  handles: PDFWidget[];
}

/**
 * Every field that has a widget on some page, found the way viewers find
 * them: through each page's /Annots. Widgets of one field share its full
 * (dotted) name, which is how they are grouped.
 */
export function readFields(doc: PDFDocument): FormField[] {
  const byName = new Map<string, FormField>();
  const pages = doc.countPages();
  for (let p = 0; p < pages; p++) {
    const page = doc.loadPage(p);
    for (const widget of page.getWidgets()) {
      const name = widget.getName();
      const field = byName.get(name) ?? newField(widget, name);
      byName.set(name, field);
      field.widgets.push({ page: p + 1, rect: widgetRect(widget.getObject()) });
      field.handles.push(widget);
      if (field.type === "checkbox" || field.type === "radio") addStates(field, widget);
    }
  }
  return [...byName.values()];
}

function newField(widget: PDFWidget, name: string): FormField {
  const type = TYPES[widget.getFieldType()] ?? "button";
  const flags = widget.getFieldFlags();
  const choice = type === "combo" || type === "list";
  const maxLen = type === "text" ? widget.getMaxLen() : 0;
  return {
    name,
    type,
    value: currentValue(widget, type),
    options: choice ? choiceOptions(widget) : [],
    required: (flags & REQUIRED) !== 0,
    readOnly: (flags & READ_ONLY) !== 0,
    maxLength: maxLen > 0 ? maxLen : null,
    multiline: type === "text" && (flags & MULTILINE) !== 0,
    multiSelect: type === "list" && (flags & MULTI_SELECT) !== 0,
    editable: type === "combo" && (flags & COMBO_EDIT) !== 0,
    widgets: [],
    handles: [],
  };
}

/** A list box's /V may be an array (multi-select), which MuPDF's getValue does not read. */
function currentValue(widget: PDFWidget, type: FieldType): string | string[] {
  if (type === "list") {
    const v = inherited(widget.getObject(), "V");
    if (v.isArray()) {
      const out: string[] = [];
      for (let i = 0; i < v.length; i++) out.push(v.get(i).asString());
      return out;
    }
    return v.isString() ? [v.asString()] : [];
  }
  const value = widget.getValue();
  if (type === "checkbox" || type === "radio") return value === "" ? "Off" : value;
  return value;
}

function choiceOptions(widget: PDFWidget): FieldOption[] {
  const values = widget.getOptions(true);
  const labels = widget.getOptions(false);
  return values.map((value, i) => ({ value, label: labels[i] ?? value }));
}

/**
 * A button widget's on-state is the name in its /AP /N other than /Off. The
 * field's /Opt (PDF 1.5) gives each widget's export value by position,
 * which is what pdf-lib writes for radio groups (states /0, /1, ...).
 */
function addStates(field: FormField, widget: PDFWidget): void {
  const obj = widget.getObject();
  const normal = obj.get("AP").get("N");
  const index = field.handles.length - 1;
  const opt = inherited(obj, "Opt");
  const exported = opt.isArray() && index < opt.length ? opt.get(index).asString() : null;
  const states: string[] = [];
  if (normal.isDictionary()) normal.forEach((_v, key) => void (key !== "Off" && states.push(String(key))));
  for (const state of states) {
    if (!field.options.some((o) => o.value === state)) field.options.push({ value: state, label: exported ?? state });
  }
}

/** An inheritable field attribute: on the widget or an ancestor field. */
export function inherited(obj: PDFObject, key: string): PDFObject {
  let node = obj;
  for (let depth = 0; depth < 32; depth++) {
    const v = node.get(key);
    if (!v.isNull()) return v;
    const parent = node.get("Parent");
    if (parent.isNull()) break;
    node = parent;
  }
  return node.get(key);
}

function widgetRect(obj: PDFObject): [number, number, number, number] {
  const r = obj.get("Rect");
  const n = (i: number) => (r.isArray() && i < r.length ? r.get(i).asNumber() : 0);
  const [x0, y0, x1, y1] = [n(0), n(1), n(2), n(3)];
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

/** An XFA form with no AcroForm widgets: its fields live in XML MuPDF does not lay out. */
export function isXfaOnly(doc: PDFDocument, fields: readonly FormField[]): boolean {
  if (fields.length > 0) return false;
  const acro = doc.getTrailer().get("Root").get("AcroForm");
  return acro.isDictionary() && !acro.get("XFA").isNull();
}
