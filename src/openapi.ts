import { z } from "zod";
import { ERROR_CODES } from "./errors";
import type { ToolDef } from "./tools/define";
import { TOOLS } from "./tools/registry";

// The OpenAPI 3.1 document is generated from the same zod schemas that
// validate requests (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod
// emits natively), so the document and the runtime cannot disagree.

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
}

const problem = {
  description: "Problem details (RFC 9457)",
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
};

function toolOperation(tool: ToolDef) {
  const media = tool.body === "json" ? "application/json" : "multipart/form-data";
  const costs = tool.operations.map((o) => `\`${o.key}\` ${o.credits} credits (${o.access})`).join("; ");
  return {
    operationId: tool.id,
    summary: tool.name,
    description: `${tool.summary}\n\nOperations: ${costs}.${tool.handler ? "" : "\n\nNot built yet: answers 501 and charges nothing."}`,
    tags: ["tools"],
    "x-operations": tool.operations,
    security: [{}, { apiKey: [] }, { bearer: [] }],
    parameters: [{ $ref: "#/components/parameters/IdempotencyKey" }],
    requestBody: { required: true, content: { [media]: { schema: jsonSchema(tool.request, "input") } } },
    responses: {
      "200": {
        description: "Finished result",
        headers: { "X-Credits-Charged": { schema: { type: "integer" } }, "X-Request-Id": { schema: { type: "string" } } },
        content: { "application/json": { schema: jsonSchema(tool.response, "output") } },
      },
      "400": problem,
      "401": problem,
      "402": problem,
      "403": problem,
      "409": { ...problem, description: "Problem details: a request with the same Idempotency-Key is still running" },
      "413": problem,
      "415": problem,
      "422": problem,
      "429": problem,
      "500": problem,
      "503": problem,
      ...(tool.handler ? {} : { "501": problem }),
    },
  };
}

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of TOOLS) paths[tool.path] = { [tool.method]: toolOperation(tool) };
  return {
    openapi: "3.1.0",
    info: {
      title: "Document Processing API",
      version: "1.0.0",
      description:
        "PDF, document and image tools; API keys, credits and signed webhooks. Non-tool endpoints (keys, account, jobs, team, webhooks, files) are described in docs/reference/ of the repository.",
      license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Up to 255 visible ASCII characters, unique per request. Within 24 hours the same key with the same request replays the first answer (header Idempotent-Replayed: true) without running or charging again; with a different request it is 422 idempotency_key_reused; while the first still runs, 409 idempotency_in_progress. Answers of 5xx, 409 and 429 are not kept. Keys are per account; anonymous calls ignore it.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      schemas: {
        Problem: {
          type: "object",
          required: ["type", "title", "status", "detail", "code", "request_id"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            code: { type: "string", enum: Object.keys(ERROR_CODES) },
            request_id: { type: "string" },
            errors: { type: "array", items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } } },
          },
        },
      },
    },
  };
}
