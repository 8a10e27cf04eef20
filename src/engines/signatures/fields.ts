import type { PDFDocument } from "../mupdf/core/document";

// The signature fields of a document's AcroForm, walked through /Kids with
// their full names (ISO 32000-2, 12.7.4.2) and inherited /FT.

export type Obj = ReturnType<PDFDocument["getTrailer"]>;

export interface SignatureField {
  name: string;
  /** The signature dictionary (/V), when the field is signed. */
  value: Obj | null;
  signed: boolean;
  /** False for the form's other fields (listed so new names do not collide). */
  signature: boolean;
}

/** obj/k1/k2... resolved step by step; MuPDF's null object cannot be asked for keys, so a missing step answers null. */
export function at(obj: Obj, ...path: (string | number)[]): Obj | null {
  let cur: Obj = obj;
  for (const k of path) {
    if (cur.isNull()) return null;
    cur = cur.get(k);
  }
  return cur.isNull() ? null : cur;
}

const MAX_DEPTH = 32;
const MAX_FIELDS = 10_000;

export function signatureFields(doc: PDFDocument): SignatureField[] {
  const out: SignatureField[] = [];
  const seen = new Set<number>();
  const visit = (field: Obj, prefix: string, inheritedType: string | null, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_FIELDS) return;
    // Shared or cyclic /Kids would otherwise loop.
    if (field.isIndirect()) {
      if (seen.has(field.asIndirect())) return;
      seen.add(field.asIndirect());
    }
    const f = field.resolve();
    if (!f.isDictionary()) return;
    const t = f.get("T");
    const name = t.isString() ? (prefix ? `${prefix}.${t.asString()}` : t.asString()) : prefix;
    const ft = f.get("FT").isName() ? f.get("FT").asName() : inheritedType;
    const kids = f.get("Kids");
    const hasFieldKids = kids.isArray() && kids.length > 0 && at(kids.get(0).resolve(), "T")?.isString() === true;
    if (hasFieldKids) {
      for (let i = 0; i < kids.length; i++) visit(kids.get(i), name, ft, depth + 1);
      return;
    }
    if (ft !== "Sig") {
      if (t.isString()) out.push({ name, value: null, signed: false, signature: false });
      return;
    }
    const v = f.get("V").resolve();
    out.push({ name, value: v.isDictionary() ? v : null, signed: v.isDictionary(), signature: true });
  };
  const fields = at(doc.getTrailer(), "Root", "AcroForm", "Fields")?.resolve();
  for (let i = 0; fields?.isArray() && i < fields.length; i++) visit(fields.get(i), "", null, 0);
  return out;
}
