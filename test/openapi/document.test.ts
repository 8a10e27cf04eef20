import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/errors";
import { ROUTES } from "../../src/routes/registry";
import { TOOLS } from "../../src/tools/registry";
import { file, postForm } from "../support/http";
import { textPdf } from "../support/pdf.mjs";
import { type Document, HTTP_METHODS, type Operation, operations, operatorDocument, publicDocument, refsIn, resolvePointer } from "./support";

// The shape of both documents as OpenAPI 3.1 requires it, and the promises a
// generated client relies on: unique operationIds, resolvable $refs, declared
// security schemes and tags, path parameters that match their templates,
// problem responses that name real codes of the right status.

const documents: [string, () => Promise<Document>][] = [
  ["/openapi.json", publicDocument],
  ["/admin/openapi.json", operatorDocument],
];

describe.each(documents)("%s", (_name, load) => {
  it("is an OpenAPI 3.1 document with info, servers, paths and components", async () => {
    const doc = await load();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith("/")).toBe(true);
      for (const key of Object.keys(item)) expect(HTTP_METHODS).toContain(key);
    }
  });

  it("resolves every $ref", async () => {
    const doc = await load();
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => resolvePointer(doc, r) === undefined)).toEqual([]);
  });

  it("names each operation once, with a declared tag, a success response and declared security schemes", async () => {
    const doc = await load();
    const ids = operations(doc).map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((t) => t.name));
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const [path, method, op] of operations(doc)) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-zA-Z][\w-]*$/);
      for (const t of op.tags ?? []) expect(tags, where).toContain(t);
      expect(
        Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
        where,
      ).toBe(true);
      for (const requirement of op.security ?? []) for (const s of Object.keys(requirement)) expect(schemes, where).toContain(s);
    }
  });

  it("declares each path template's parameters as required path parameters, and no others", async () => {
    const doc = await load();
    for (const [path, method, op] of operations(doc)) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .map((p) => (p.$ref ? resolvePointer(doc, p.$ref as string) : p) as { name: string; in: string; required?: boolean })
        .filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inTemplate);
      expect(declared.every((p) => p.required === true)).toBe(true);
    }
  });

  it("gives every problem response the Problem schema and codes of that status", async () => {
    const doc = await load();
    for (const [path, method, op] of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const where = `${method} ${path} ${status}`;
        const codes = response["x-problem-codes"] ?? [];
        expect(codes.length, where).toBeGreaterThan(0);
        for (const code of codes) expect(ERROR_CODES[code as keyof typeof ERROR_CODES]?.[0], `${where} ${code}`).toBe(Number(status));
        const schema = response.content?.["application/problem+json"]?.schema as { allOf: { $ref?: string }[] };
        expect(schema.allOf[0].$ref, where).toBe("#/components/schemas/Problem");
      }
    }
  });
});

describe("what the public document promises", () => {
  const op = (doc: Document, method: string, path: string): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found;
  };
  const codesOf = (o: Operation) => Object.values(o.responses).flatMap((r) => r["x-problem-codes"] ?? []);
  const takesIdempotencyKey = (o: Operation) => (o.parameters ?? []).some((p) => p.$ref === "#/components/parameters/IdempotencyKey");

  it("declares Idempotency-Key on every tool and on each POST that creates or grants, and nowhere else", async () => {
    const doc = await publicDocument();
    const admin = await operatorDocument();
    const withKey = [...operations(doc), ...operations(admin)].filter(([, , o]) => takesIdempotencyKey(o)).map(([p, m]) => `${m.toUpperCase()} ${p}`);
    const expected = [
      ...TOOLS.map((t) => `POST ${t.path}`),
      "POST /api/v1/keys",
      "POST /api/v1/webhooks",
      "POST /admin/v1/accounts",
      "POST /admin/v1/accounts/{id}/credits",
      "POST /admin/v1/accounts/{id}/payments",
    ];
    expect(withKey.sort()).toEqual(expected.sort());
    expect(codesOf(op(doc, "post", "/api/v1/keys"))).toEqual(expect.arrayContaining(["idempotency_in_progress", "idempotency_key_reused"]));
  });

  it("documents credentials per auth class: none, API key or JWT, JWT only, operator token", async () => {
    const doc = await publicDocument();
    expect(op(doc, "get", "/api/v1/redact/entity-types").security).toEqual([]);
    expect(op(doc, "get", "/api/v1/account").security).toEqual([{ apiKey: [] }, { bearer: [] }, { sessionCookie: [] }]);
    expect(op(doc, "post", "/api/v1/keys").security).toEqual([{ bearer: [] }, { sessionCookie: [] }]);
    expect(op(await operatorDocument(), "post", "/admin/v1/accounts").security).toEqual([{ adminToken: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      bearer: { type: "http", scheme: "bearer" },
    });
  });

  it("offers anonymous use (security {}) on exactly the tools with an operation free to try, and such a tool refuses anonymous callers", async () => {
    const doc = await publicDocument();
    for (const tool of TOOLS) {
      const anonymous = (op(doc, tool.method, tool.path).security ?? []).some((r) => Object.keys(r).length === 0);
      expect(anonymous, tool.id).toBe(tool.operations.some((o) => o.access === "free-try"));
    }
    // Redact is login-class: /docs must not promise what the API refuses.
    const res = await postForm("/api/v1/redact", { file: file(await textPdf(1), "a.pdf"), entity_types: "email" });
    expect(res.status).toBe(401);
    expect(op(doc, "post", "/api/v1/redact").security).toEqual([{ apiKey: [] }, { bearer: [] }, { sessionCookie: [] }]);
  });

  it("lists the problem codes each route can give: its own, its auth class's and its validation's", async () => {
    const doc = await publicDocument();
    const create = codesOf(op(doc, "post", "/api/v1/keys"));
    expect(create).toEqual(expect.arrayContaining(["key_limit_reached", "forbidden", "unauthorized", "validation_failed", "invalid_json"]));
    const webhook = codesOf(op(doc, "post", "/api/v1/webhooks"));
    expect(webhook).toEqual(expect.arrayContaining(["unsafe_webhook_url", "webhook_limit_reached", "plan_required", "permission_denied"]));
    expect(codesOf(op(doc, "get", "/api/v1/jobs/{id}"))).toEqual(expect.arrayContaining(["not_found", "permission_denied"]));
    expect(codesOf(op(doc, "get", "/files/{key}"))).toEqual(expect.arrayContaining(["not_found", "gone"]));
    expect(codesOf(op(doc, "get", "/files/{key}"))).not.toContain("unauthorized");
    const merge = codesOf(op(doc, "post", "/api/v1/pdf/merge/merge"));
    expect(merge).toEqual(expect.arrayContaining(["insufficient_credits", "budget_exceeded", "scope_denied", "too_few_files", "rate_limited", "memory_busy"]));
    expect(merge).not.toContain("key_limit_reached");
    expect(merge).not.toContain("not_implemented");
  });

  it("describes request bodies and answers with the validators' schemas", async () => {
    const doc = await publicDocument();
    const create = op(doc, "post", "/api/v1/keys");
    const body = create.requestBody?.content["application/json"].schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(body.properties).sort()).toEqual(["credit_limit", "description", "expires_in_days", "name", "permissions", "scopes"]);
    expect(body.required).toEqual(["name"]);
    const answer = create.responses["201"].content?.["application/json"].schema as { properties: Record<string, unknown> };
    expect(Object.keys(answer.properties)).toEqual(expect.arrayContaining(["id", "api_key", "key_prefix", "scopes", "credit_limit"]));
    const deliveries = op(doc, "get", "/api/v1/webhooks/{id}/deliveries");
    const query = (deliveries.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.required]);
    expect(query).toEqual([
      ["limit", false],
      ["cursor", false],
      ["status", false],
    ]);
    const status = (deliveries.parameters ?? []).find((p) => p.in === "query" && p.name === "status") as { schema?: { enum?: string[] } } | undefined;
    expect(status?.schema?.enum).toEqual(["pending", "delivered", "dead"]);
  });

  it("has one operation per declared route and per tool", async () => {
    const count = operations(await publicDocument()).length + operations(await operatorDocument()).length;
    // Plus POST /mcp, the MCP endpoint (src/mcp/openapi.ts).
    expect(count).toBe(TOOLS.length + ROUTES.length + 1);
  });
});
