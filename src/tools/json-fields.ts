import { jsonSchema } from "../http/route-openapi";
import type { ToolDef } from "./define";

// A tool's fields given as JSON values (an MCP call's arguments, a chain
// step's fields) turned into what its multipart form carries: text, repeated
// text and files. Which fields hold files or JSON text is read from the same
// JSON Schema /openapi.json publishes, so the two can never disagree.

type JsonSchema = Record<string, unknown>;

export interface FieldKinds {
  /** The request body's JSON Schema (input side). */
  schema: JsonSchema & { properties?: Record<string, JsonSchema> };
  /** File fields: name -> whether it takes several files. */
  files: ReadonlyMap<string, boolean>;
  /** Fields whose text is JSON (`values`, `custom`, `options`...): any JSON value is sent as its text. */
  jsonText: ReadonlySet<string>;
}

const isBinary = (s: unknown): boolean => typeof s === "object" && s !== null && (s as JsonSchema).format === "binary";

const kindsByTool = new WeakMap<ToolDef, FieldKinds>();

/** Built once per tool: a pure function of its declaration. */
export function fieldKinds(tool: ToolDef): FieldKinds {
  const known = kindsByTool.get(tool);
  if (known) return known;
  const schema = jsonSchema(tool.request, "input") as FieldKinds["schema"];
  const files = new Map<string, boolean>();
  const jsonText = new Set<string>();
  if (tool.body === "multipart") {
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (isBinary(prop)) files.set(name, false);
      else if (prop.type === "array" && isBinary(prop.items)) files.set(name, true);
      else if (prop.contentMediaType === "application/json") jsonText.add(name);
    }
  }
  const kinds = { schema, files, jsonText };
  kindsByTool.set(tool, kinds);
  return kinds;
}

export type FormFieldValue<F> = string | F;
export type FormFields<F = File> = Record<string, FormFieldValue<F> | FormFieldValue<F>[]>;

/**
 * The fields as formToObject (http/validate.ts) would have read them from a
 * multipart body, each file argument mapped by `fileOf` (to a File, a
 * promise of one, a stand-in): null and undefined are absent, as is "" unless
 * the tool keeps empty fields; booleans and numbers become their text;
 * arrays are repeated fields; objects, and any value of a JSON-text field,
 * become JSON.
 */
export function formFieldsOf<F>(tool: ToolDef, args: Record<string, unknown>, fileOf: (value: unknown, field: string) => F): FormFields<F> {
  const { files, jsonText } = fieldKinds(tool);
  const out: FormFields<F> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const many = files.get(name);
    if (many !== undefined) {
      const refs = many && Array.isArray(value) ? value : [value];
      if (refs.length) out[name] = single(refs.map((ref, i) => fileOf(ref, many ? `${name}[${i}]` : name)));
      continue;
    }
    const texts = jsonText.has(name) && typeof value !== "string" ? [JSON.stringify(value)] : Array.isArray(value) ? value.map(text) : [text(value)];
    const kept = tool.keepEmptyFields ? texts : texts.filter((t) => t !== "");
    if (kept.length) out[name] = single(kept);
  }
  return out;
}

type FileThunk = () => Promise<File>;

/** The fields with every file fetched, one after another (each file's memory is held as it arrives, not all at once). */
export async function settledFields(fields: FormFields<FileThunk>): Promise<FormFields> {
  const settle = async (v: FormFieldValue<FileThunk>) => (typeof v === "string" ? v : await v());
  const out: FormFields = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!Array.isArray(value)) out[name] = await settle(value);
    else {
      const list: FormFieldValue<File>[] = [];
      for (const v of value) list.push(await settle(v));
      out[name] = list;
    }
  }
  return out;
}

/** As formToObject reads a field: one part is a value, several an array. */
const single = <T>(list: T[]): T | T[] => (list.length === 1 ? list[0] : list);

const text = (v: unknown): string => (typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v));

/** The same fields as a multipart body, for a request through the tool's route. */
export function formDataOf(fields: FormFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  return form;
}
