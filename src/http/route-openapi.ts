import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors";
import type { AnyRoute, RouteAuth } from "./route";

// The OpenAPI operation of a route declaration: parameters, body and answers
// come from the same zod schemas route-mount.ts validates with; the problem codes
// are the handler's own plus those its auth class, validation and
// Idempotency-Key can give.

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const AUTH_PROBLEMS: Record<string, ErrorCode[]> = {
  public: [],
  jwt: ["unauthorized", "invalid_credentials", "forbidden"],
  "jwt:": ["unauthorized", "invalid_credentials", "forbidden", "permission_denied"],
  "key-or-jwt:": ["unauthorized", "invalid_credentials", "permission_denied"],
  admin: ["unauthorized", "not_found"],
};

const authProblems = (auth: RouteAuth): ErrorCode[] => AUTH_PROBLEMS[auth] ?? AUTH_PROBLEMS[auth.replace(/:.*$/, ":")];

const SECURITY: Record<string, Record<string, string[]>[]> = {
  public: [],
  jwt: [{ bearer: [] }, { sessionCookie: [] }],
  "jwt:": [{ bearer: [] }, { sessionCookie: [] }],
  "key-or-jwt:": [{ apiKey: [] }, { bearer: [] }, { sessionCookie: [] }],
  admin: [{ adminToken: [] }],
};

/** Every problem code a route can answer with, sorted by status then name. */
export function problemCodesOf(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>([...authProblems(route.auth), ...(route.problems ?? []), "internal_error", "service_unavailable"]);
  if (route.params || route.query) codes.add("validation_failed");
  if (route.body) for (const c of ["validation_failed", "invalid_json", "unsupported_media_type", "payload_too_large"] as const) codes.add(c);
  if (route.idempotent) for (const c of ["bad_request", "idempotency_in_progress", "idempotency_key_reused"] as const) codes.add(c);
  return [...codes].sort((a, b) => ERROR_CODES[a][0] - ERROR_CODES[b][0] || a.localeCompare(b));
}

/** Problem responses by status, each naming the codes it can carry (also as an enum a client can switch on). */
export function problemResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code][0], [...(byStatus.get(ERROR_CODES[code][0]) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of byStatus) {
    out[String(status)] = {
      description: `Problem details (RFC 9457); code: ${list.join(", ")}`,
      "x-problem-codes": list,
      content: {
        "application/problem+json": {
          schema: { allOf: [{ $ref: "#/components/schemas/Problem" }, { type: "object", properties: { code: { type: "string", enum: list } } }] },
        },
      },
    };
  }
  return out;
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): Record<string, unknown>[] {
  if (!schema) return [];
  const object = jsonSchema(schema, "input") as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: where, required: where === "path" || (object.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

function successResponses(route: AnyRoute): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(route.responses)) {
    const media = r.media ?? "application/json";
    const schema = r.schema ? jsonSchema(r.schema, "output") : media === "application/json" ? undefined : { type: "string", contentMediaType: media };
    out[status] = {
      description: r.description,
      headers: { "X-Request-Id": { schema: { type: "string" } }, ...(r.headers ?? {}) },
      ...(schema ? { content: { [media]: { schema } } } : {}),
    };
  }
  return out;
}

export function routeOperation(route: AnyRoute): Record<string, unknown> {
  const parameters = [
    ...parametersOf(route.params, "path"),
    ...parametersOf(route.query, "query"),
    ...(route.idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
  ];
  return {
    operationId: route.id,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: SECURITY[route.auth] ?? SECURITY[route.auth.replace(/:.*$/, ":")],
    ...(route.auth.includes(":") ? { "x-permission": route.auth.split(":")[1] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { "application/json": { schema: jsonSchema(route.body, "input") } } } } : {}),
    responses: { ...successResponses(route), ...problemResponses(problemCodesOf(route)) },
  };
}
