import { Problem } from "../errors";
import { isOperatorRoute, type AnyRoute } from "../http/route";
import { MCP_PATH, mcpPathItem } from "../mcp/openapi";
import { jsonSchema, problemResponses, routeOperation } from "../http/route-openapi";
import { ROUTES } from "./registry";
import { type ToolDef, toolDescription } from "../tools/define";
import { toolProblemCodes } from "../tools/problems";
import { TOOLS } from "../tools/registry";

// The OpenAPI 3.1 documents are generated from the same zod schemas that
// validate requests (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod
// emits natively), so the documents and the runtime cannot disagree. Tools
// come from their defineTool declarations, every other route from its
// defineRoute declaration; the operator API has a document of its own.

const CREDENTIALS: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }, { sessionCookie: [] }];

/** Anonymous callers (`{}`) only where one of the tool's operations is free to try; login and paid tools need credentials. */
export function toolSecurity(tool: ToolDef): Record<string, string[]>[] {
  return tool.operations.some((o) => o.access === "free-try") ? [{}, ...CREDENTIALS] : CREDENTIALS;
}

function toolOperation(tool: ToolDef) {
  const media = { json: ["application/json"], multipart: ["multipart/form-data"], "json-or-multipart": ["application/json", "multipart/form-data"] }[tool.body];
  const schema = jsonSchema(tool.request, "input");
  return {
    operationId: tool.id,
    summary: tool.name,
    description: toolDescription(tool),
    tags: ["tools"],
    "x-operations": tool.operations,
    security: toolSecurity(tool),
    parameters: [{ $ref: "#/components/parameters/IdempotencyKey" }],
    requestBody: { required: true, content: Object.fromEntries(media.map((m) => [m, { schema }])) },
    responses: {
      "200": {
        description: "Finished result",
        headers: { "X-Credits-Charged": { schema: { type: "integer" } }, "X-Request-Id": { schema: { type: "string" } } },
        content: { "application/json": { schema: jsonSchema(tool.response, "output") } },
      },
      ...problemResponses(toolProblemCodes(tool)),
    },
  };
}

function addOperation(paths: Record<string, Record<string, unknown>>, path: string, method: string, operation: unknown): void {
  paths[path] = { ...paths[path], [method]: operation };
}

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Up to 255 visible ASCII characters, unique per request. Within 24 hours the same key with the same request replays the first answer (header Idempotent-Replayed: true) without running or charging again; with a different request it is 422 idempotency_key_reused; while the first still runs, 409 idempotency_in_progress. Answers of 5xx, 409 and 429 are not kept; secrets shown once (api_key, secret) replay as null. Keys are per account; anonymous calls ignore it.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

function document(serverUrl: string, info: { title: string; description: string }, paths: Record<string, Record<string, unknown>>, tags: string[]) {
  return {
    openapi: "3.1.0",
    info: { ...info, version: "1.0.0", license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" } },
    servers: [{ url: serverUrl }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key (dt_live_...), created with POST /api/v1/keys." },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A dashboard JWT of a user." },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-session",
          description: "The console's session (POST /api/v1/auth/session); state-changing calls also need X-CSRF-Token.",
        },
        adminToken: { type: "http", scheme: "bearer", description: "The operator token (ADMIN_TOKEN)." },
      },
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
      schemas: { Problem: jsonSchema(Problem, "output") },
    },
  };
}

function routePaths(routes: readonly AnyRoute[], paths: Record<string, Record<string, unknown>> = {}) {
  for (const route of routes) addOperation(paths, route.path, route.method, routeOperation(route));
  return paths;
}

const tagsOf = (routes: readonly AnyRoute[], first: string[] = []) => [...new Set([...first, ...routes.flatMap((r) => r.tags)])];

/** /openapi.json: every tool and every public route (API key, JWT or no credentials). */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const routes = ROUTES.filter((r) => !isOperatorRoute(r));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of TOOLS) addOperation(paths, tool.path, tool.method, toolOperation(tool));
  routePaths(routes, paths);
  paths[MCP_PATH] = mcpPathItem();
  return document(
    serverUrl,
    {
      title: "Document Processing API",
      description:
        "PDF, document and image tools; API keys, credits and signed webhooks. Errors are problem+json with a stable `code`. The operator API is described at /admin/openapi.json (operator token).",
    },
    paths,
    tagsOf(routes, ["tools", "mcp"]),
  );
}

/** /admin/openapi.json: the operator API, behind the operator token. */
export function operatorOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const routes = ROUTES.filter(isOperatorRoute);
  return document(
    serverUrl,
    { title: "Document Processing API: operator API", description: "Bootstrap, billing and support routes, behind ADMIN_TOKEN." },
    routePaths(routes),
    tagsOf(routes),
  );
}
