import { withPdf } from "../core/document";
import { type FormField, isXfaOnly, readFields } from "./fields";

export type ReadField = Omit<FormField, "handles">;

export interface FormReading {
  fields: ReadField[];
  pages: number;
  /** The file has an /XFA form and no AcroForm widget to read. */
  xfaOnly: boolean;
}

/** The AcroForm fields of a PDF, read without changing it. */
export async function readForm(bytes: Uint8Array): Promise<FormReading> {
  return withPdf(bytes, (doc) => {
    const fields = readFields(doc);
    return {
      fields: fields.map(({ handles: _handles, ...field }) => field),
      pages: doc.countPages(),
      xfaOnly: isXfaOnly(doc, fields),
    };
  });
}
