import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { ROUTES } from "../../src/routes/registry";
import { TOOLS } from "../../src/tools/registry";
import { ADMIN_TOKEN, call, problem } from "../support/http";
import { type Document, operations, openApiPathOf, operatorDocument, publicDocument } from "./support";

// Every route the app answers is documented, and every documented operation
// is one the app answers: the documents are derived from the declarations,
// and this walks the real Hono app to prove nothing is routed beside them.

/** (METHOD path) of every handler the app registers; middleware (method ALL) is not a route. */
function registered(): Set<string> {
  const out = new Set<string>();
  for (const r of buildApp().routes) if (r.method !== "ALL") out.add(`${r.method} ${openApiPathOf(r.path)}`);
  return out;
}

function documented(...docs: Document[]): Set<string> {
  return new Set(docs.flatMap((d) => operations(d).map(([path, method]) => `${method.toUpperCase()} ${path}`)));
}

/** Other spellings of a declared route (the webhooks collection's trailing slash, a page's redirect), routed but not documented twice. */
const ALIASES = new Set(
  ROUTES.flatMap((r) => [...(r.aliases ?? []).map((a) => `${r.method.toUpperCase()} ${a}`), ...(r.redirectsFrom ?? []).map((a) => `GET ${a}`)]),
);

describe("every route is documented", () => {
  it("finds each registered route in /openapi.json or /admin/openapi.json", async () => {
    const docs = documented(await publicDocument(), await operatorDocument());
    const missing = [...registered()].filter((r) => !docs.has(r) && !ALIASES.has(r));
    expect(missing).toEqual([]);
  });

  it("registers each documented operation", async () => {
    const routes = registered();
    const phantom = [...documented(await publicDocument(), await operatorDocument())].filter((d) => !routes.has(d));
    expect(phantom).toEqual([]);
  });

  it("walks a real app: the tools, the keys, the webhooks, the files and the operator API are all there", () => {
    const routes = registered();
    for (const r of [
      "POST /api/v1/pdf/merge/merge",
      "DELETE /api/v1/keys/{keyId}",
      "GET /api/v1/webhooks/{id}/deliveries",
      "GET /files/{key}",
      "POST /admin/v1/accounts",
    ]) {
      expect(routes).toContain(r);
    }
    // The walk itself can fail: a route added outside the declarations shows up.
    const app = buildApp();
    app.get("/api/v1/undeclared", (c) => c.text("x"));
    const extra = app.routes.map((r) => `${r.method} ${openApiPathOf(r.path)}`);
    expect(extra).toContain("GET /api/v1/undeclared");
  });

  it("keeps the operator API out of the public document and in its own", async () => {
    const pub = await publicDocument();
    const op = await operatorDocument();
    expect(Object.keys(pub.paths).filter((p) => p.startsWith("/admin"))).toEqual([]);
    expect(Object.keys(op.paths).every((p) => p.startsWith("/admin"))).toBe(true);
    expect(Object.keys(pub.paths)).toEqual(expect.arrayContaining(TOOLS.map((t) => t.path)));
  });

  it("serves /admin/openapi.json only with the operator token", async () => {
    const none = await call("/admin/openapi.json");
    expect(none.status).toBe(401);
    expect((await problem(none)).code).toBe("unauthorized");
    const wrong = await call("/admin/openapi.json", { headers: { Authorization: "Bearer wrong" } });
    expect(wrong.status).toBe(401);
    const ok = await call("/admin/openapi.json", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(ok.status).toBe(200);
  });
});
