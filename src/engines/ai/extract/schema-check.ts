import { newValidator } from "./validator";

// Whether a caller's `schema` is a JSON Schema we can validate answers
// against: the keywords' shapes are checked here (drafts 4 to 2020-12 agree
// on them), then @cfworker/json-schema must accept it (it runs on Workers;
// ajv compiles with new Function, which Workers forbid). Bounded in size
// and depth before anything walks it.

export const MAX_SCHEMA_CHARS = 32_000;
const MAX_DEPTH = 32;
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const SCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const ONE_SCHEMA = [
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const STRINGS = [
  "$id",
  "$ref",
  "$schema",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "title",
  "description",
  "format",
  "$comment",
  "contentMediaType",
  "contentEncoding",
];

/** What is wrong with `schema` as a JSON Schema; empty when it is usable. */
export function schemaProblems(schema: unknown): string[] {
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) return [`the schema is longer than ${MAX_SCHEMA_CHARS} characters`];
  const problems: string[] = [];
  check(schema, "#", 0, problems);
  return problems.slice(0, 10);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function check(schema: unknown, at: string, depth: number, problems: string[]): void {
  if (typeof schema === "boolean") return;
  if (!isObject(schema)) return void problems.push(`${at} must be an object or a boolean`);
  if (depth > MAX_DEPTH) return void problems.push(`${at} nests deeper than ${MAX_DEPTH} levels`);
  const sub = (v: unknown, path: string) => check(v, path, depth + 1, problems);
  const type = schema.type;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (!names.length || names.some((t) => typeof t !== "string" || !TYPES.has(t))) problems.push(`${at}/type must name JSON types (${[...TYPES].join(", ")})`);
  }
  for (const key of SCHEMA_MAP) {
    if (schema[key] === undefined) continue;
    if (!isObject(schema[key])) problems.push(`${at}/${key} must be an object of schemas`);
    else for (const [name, v] of Object.entries(schema[key])) sub(v, `${at}/${key}/${name}`);
  }
  for (const key of ONE_SCHEMA) if (schema[key] !== undefined) sub(schema[key], `${at}/${key}`);
  for (const key of SCHEMA_LIST) {
    const v = schema[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || !v.length) problems.push(`${at}/${key} must be a non-empty array of schemas`);
    else v.forEach((s, i) => sub(s, `${at}/${key}/${i}`));
  }
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) schema.items.forEach((s, i) => sub(s, `${at}/items/${i}`));
    else sub(schema.items, `${at}/items`);
  }
  const required = schema.required;
  if (required !== undefined && (!Array.isArray(required) || required.some((r) => typeof r !== "string")))
    problems.push(`${at}/required must be an array of strings`);
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) problems.push(`${at}/enum must be an array`);
  for (const key of COUNTS) {
    const v = schema[key];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0)) problems.push(`${at}/${key} must be a non-negative integer`);
  }
  for (const key of NUMBERS) {
    const v = schema[key];
    // Draft 4 spells exclusiveMinimum/Maximum as booleans.
    if (v !== undefined && typeof v !== "number" && !(key.startsWith("exclusive") && typeof v === "boolean")) problems.push(`${at}/${key} must be a number`);
  }
  if (schema.multipleOf !== undefined && !(typeof schema.multipleOf === "number" && schema.multipleOf > 0))
    problems.push(`${at}/multipleOf must be a number above 0`);
  for (const key of STRINGS) if (schema[key] !== undefined && typeof schema[key] !== "string") problems.push(`${at}/${key} must be a string`);
  if (typeof schema.pattern === "string") {
    try {
      new RegExp(schema.pattern, "u");
    } catch {
      problems.push(`${at}/pattern is not a valid regular expression`);
    }
  } else if (schema.pattern !== undefined) problems.push(`${at}/pattern must be a string`);
}

/** Why the validator cannot use a shape-valid schema (an unresolvable $ref, say); null when it can. */
export async function validatorProblem(schema: unknown): Promise<string | null> {
  try {
    (await newValidator(schema)).validate(null);
    return null;
  } catch (err) {
    return `the schema cannot be used: ${err instanceof Error ? err.message : String(err)}`;
  }
}
