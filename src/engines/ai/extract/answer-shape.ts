// The answer's shape against its schema: declared-but-missing properties
// filled with null (docs/tools/ai.md: absent fields are null), the schema relaxed so
// that such a null validates, and "found nothing" decided for the vision
// fallback. Pure functions over JSON values.

type Json = unknown;
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Copies `value` with every property `schema` declares present, null where the answer left it out. */
export function fillNulls(schema: unknown, value: Json, depth = 0): Json {
  if (!isObject(schema) || depth > 32) return value;
  const props = schema.properties;
  if (isObject(props) && isObject(value)) {
    const out: Record<string, unknown> = { ...value };
    for (const [key, sub] of Object.entries(props)) out[key] = key in value ? fillNulls(sub, value[key], depth + 1) : null;
    return out;
  }
  if (isObject(schema.items) && Array.isArray(value)) return value.map((v) => fillNulls(schema.items, v, depth + 1));
  return value;
}

/** `schema` with each declared property allowed to be null as well. */
export function allowNullProperties(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 32) return schema;
  const out: Schema = { ...schema };
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, sub]) => [k, { anyOf: [allowNullProperties(sub, depth + 1), { type: "null" }] }]),
    );
  }
  if (isObject(schema.items)) out.items = allowNullProperties(schema.items, depth + 1);
  for (const key of ["$defs", "definitions"]) {
    const defs = schema[key];
    if (isObject(defs)) out[key] = Object.fromEntries(Object.entries(defs).map(([k, sub]) => [k, allowNullProperties(sub, depth + 1)]));
  }
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((sub) => allowNullProperties(sub, depth + 1));
  }
  return out;
}

/** Null, blank strings, empty arrays and objects of nothing: what the model answers when a page holds none of the fields. */
export function foundNothing(value: Json): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return !value.trim();
  if (Array.isArray(value)) return value.every(foundNothing);
  if (isObject(value)) return Object.values(value).every(foundNothing);
  return false;
}
