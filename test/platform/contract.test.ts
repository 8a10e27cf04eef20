import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/tools/registry";
import { balanceOf, createAccount, createKey } from "../support/accounts";
import { call, problem, withKey } from "../support/http";

// The shared failures, run against every tool the registry declares: a new
// tool gets these checks without writing them again.

const built = TOOLS.filter((t) => t.handler);
const anonymousAllowed = (t: (typeof TOOLS)[number]) => t.operations[0].access === "free-try";

function emptyBody(tool: (typeof TOOLS)[number]): RequestInit {
  return tool.body === "json" ? { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } } : { method: "POST", body: new FormData() };
}

describe.each(TOOLS.map((t) => [t.id, t] as const))("contract: %s", (_id, tool) => {
  it("answers problem+json with X-Credits-Charged 0 and X-Request-Id for a bad credential", async () => {
    const res = await call(tool.path, { ...emptyBody(tool), headers: { ...emptyBody(tool).headers, "X-API-Key": "dt_live_nope" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    const body = await problem(res);
    expect(body).toMatchObject({ status: 401, code: "invalid_credentials", request_id: res.headers.get("X-Request-Id") });
  });

  it("applies its access class to anonymous callers", async () => {
    const res = await call(tool.path, emptyBody(tool));
    if (tool.anonymousNeedsOrigin) {
      // Anonymous server-side calls (no browser Origin) are 401 (docs/reference/pdf-toolkit.md, Unlock PDF).
      expect(res.status).toBe(401);
      const fromBrowser = await call(tool.path, { ...emptyBody(tool), headers: { Origin: "https://app.example" } });
      expect(fromBrowser.status).not.toBe(401);
      expect(fromBrowser.status).toBe(400);
    } else if (anonymousAllowed(tool)) {
      expect(res.status).not.toBe(401);
    } else {
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("unauthorized");
    }
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  });

  it("refuses a key whose scopes do not cover the tool with 403, charging nothing", async () => {
    const acc = await createAccount({ credits: 1000 });
    const other = tool.id === "merge-pdf" ? "pdf.split" : "pdf.merge";
    const key = await createKey(acc.token, { scopes: [other] });
    const res = await call(tool.path, { ...emptyBody(tool), headers: { ...emptyBody(tool).headers, ...withKey(key.api_key) } });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("scope_denied");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acc.token)).toBe(1000);
  });

  it("is listed in the OpenAPI document with its operations", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string; "x-operations": { key: string; credits: number }[] }>>;
    };
    const op = doc.paths[tool.path]?.[tool.method];
    expect(op?.operationId).toBe(tool.id);
    expect(op["x-operations"].map((o) => [o.key, o.credits])).toEqual(tool.operations.map((o) => [o.key, o.credits]));
  });
});

describe.each(built.map((t) => [t.id, t] as const))("contract (built): %s", (_id, tool) => {
  it("validates the body: an empty request is a 4xx problem with field errors and costs nothing", async () => {
    const acc = await createAccount({ credits: 1000 });
    const key = await createKey(acc.token);
    const res = await call(tool.path, { ...emptyBody(tool), headers: { ...emptyBody(tool).headers, ...withKey(key.api_key) } });
    expect([400, 415, 422]).toContain(res.status);
    const body = await problem(res);
    expect(body.errors?.length ?? 0).toBeGreaterThan(0);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acc.token)).toBe(1000);
  });

  it("refuses the wrong content type with 415", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token);
    const res = await call(tool.path, { method: "POST", body: "hello", headers: { "Content-Type": "text/plain", ...withKey(key.api_key) } });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_media_type");
  });
});

describe("documents", () => {
  it("serves an OpenAPI 3.1 document whose tool schemas come from the validators", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    // Every tool is there; the other routes are checked by test/openapi/.
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(TOOLS.map((t) => t.path)));
    const merge = (
      doc.paths["/api/v1/pdf/merge/merge"] as {
        post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } };
      }
    ).post;
    const schema = merge.requestBody.content["multipart/form-data"].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(["async_processing", "files", "options"]);
    expect(schema.required).toContain("files");
  });

  it("serves the interactive reference at /docs and problem+json 404s elsewhere", async () => {
    const docs = await call("/docs");
    expect(docs.headers.get("Content-Type")).toContain("text/html");
    expect(await docs.text()).toContain("/openapi.json");
    const missing = await call("/api/v1/nope");
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe("not_found");
    // The doubled segment is the route; the single one is not (docs/reference/pdf-merge-split.md).
    expect((await call("/api/v1/pdf/merge", { method: "POST", body: new FormData() })).status).toBe(404);
  });
});
