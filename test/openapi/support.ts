import { ADMIN_TOKEN, call } from "../support/http";

export type Json = Record<string, unknown>;
export interface Operation {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json & { content?: Record<string, { schema: Json }>; "x-problem-codes"?: string[] }>;
}
export interface Document {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Json & { securitySchemes: Record<string, unknown> };
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export async function publicDocument(): Promise<Document> {
  return (await (await call("/openapi.json")).json()) as Document;
}

export async function operatorDocument(): Promise<Document> {
  const res = await call("/admin/openapi.json", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (res.status !== 200) throw new Error(`/admin/openapi.json -> ${res.status}`);
  return (await res.json()) as Document;
}

/** Every operation of a document as [path, method, operation]. */
export function operations(doc: Document): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => HTTP_METHODS.includes(m))
      .map(([m, op]) => [path, m, op] as [string, string, Operation]),
  );
}

/** Every "$ref" string anywhere in a value. */
export function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** Follows a local JSON pointer ("#/components/schemas/Problem") in a document, or answers undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node || typeof node !== "object" || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Hono's pattern in OpenAPI's form: /files/:key{.+} -> /files/{key}. */
export function openApiPathOf(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

/**
 * Keys of `value` that the JSON schema does not declare, as paths: a
 * response that carries a field its schema lacks fails, so a generated
 * client sees every field the API answers.
 */
export function undeclared(schema: Json | undefined, value: unknown, path = "$"): string[] {
  if (!schema || value === null || value === undefined) return [];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) {
    const results = variants.map((v) => undeclared(v, value, path));
    return results.find((r) => r.length === 0) ?? results[0];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => undeclared(schema.items as Json | undefined, v, `${path}[${i}]`));
  if (typeof value !== "object") return [];
  const props = schema.properties as Record<string, Json> | undefined;
  if (!props) return [];
  return Object.entries(value).flatMap(([k, v]) => (k in props ? undeclared(props[k], v, `${path}.${k}`) : [`${path}.${k}`]));
}
