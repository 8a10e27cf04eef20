// AI extract's presets (invoice, receipt, resume), each the JSON
// Schema the answer must meet. Every field may be null: absent fields are
// null, never invented. docs/tools/ai.md and the OpenAPI description list
// the fields from these objects.

type Schema = Record<string, unknown>;

const text = { type: ["string", "null"] };
const number = { type: ["number", "null"] };
const date = { type: ["string", "null"], description: "as printed in the document" };
const strings = { type: "array", items: { type: "string" } };
const object = (properties: Record<string, Schema>): Schema => ({ type: ["object", "null"], properties, required: Object.keys(properties) });
/** The answer itself is an object; nested objects may be null when the document has none. */
const root = (properties: Record<string, Schema>): Schema => ({ ...object(properties), type: "object" });
const list = (properties: Record<string, Schema>): Schema => ({ type: "array", items: object(properties) });

export const PRESETS: Record<string, Schema> = {
  invoice: root({
    invoice_number: text,
    invoice_date: date,
    due_date: date,
    currency: { ...text, description: "ISO 4217 code when the document makes it clear" },
    vendor: object({ name: text, address: text, tax_id: text }),
    customer: object({ name: text, address: text }),
    line_items: list({ description: text, quantity: number, unit_price: number, amount: number }),
    subtotal: number,
    tax: number,
    total: number,
    payment_terms: text,
  }),
  receipt: root({
    merchant: object({ name: text, address: text }),
    date,
    time: text,
    currency: text,
    items: list({ description: text, quantity: number, price: number }),
    subtotal: number,
    tax: number,
    tip: number,
    total: number,
    payment_method: text,
  }),
  resume: root({
    name: text,
    email: text,
    phone: text,
    location: text,
    summary: text,
    experience: list({ title: text, company: text, start_date: date, end_date: date, description: text }),
    education: list({ institution: text, degree: text, field: text, start_date: date, end_date: date }),
    skills: strings,
    languages: strings,
  }),
};

export type PresetName = keyof typeof PRESETS;

/** The preset a request names (case and spaces ignored), or null: blank and unknown names mean salient fields. */
export function presetSchema(name: string): Schema | null {
  return PRESETS[name.trim().toLowerCase()] ?? null;
}

/** "invoice: invoice_number, invoice_date, vendor (name, address, tax_id), …": the field lists for the docs. */
export function presetFieldList(name: string): string {
  return fields(PRESETS[name]);
}

function fields(schema: Schema): string {
  const props = (schema.properties ?? (schema.items as Schema | undefined)?.properties) as Record<string, Schema> | undefined;
  if (!props) return "";
  return Object.entries(props)
    .map(([key, sub]) => {
      const inner = fields(sub);
      return inner ? `${key} (${inner})` : key;
    })
    .join(", ");
}
