import { describe, expect, it } from "vitest";
import { publicDocument } from "../../openapi/support";

// Issue #17: the console's routes are public API, declared like every other
// route, so the typed client is generated from them. Their parameters and
// problem codes must be in /openapi.json; the dev mailbox must not be.

describe("the console's routes in /openapi.json", () => {
  it("declares sign-in, session and usage with their parameters and problem codes", async () => {
    const doc = await publicDocument();
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    expect(op("/api/v1/auth/magic-link", "post")?.operationId).toBe("requestMagicLink");
    expect(op("/api/v1/auth/magic-link", "post")?.responses["429"]?.["x-problem-codes"]).toEqual(["rate_limited"]);
    const redeem = op("/api/v1/auth/session", "post");
    expect(redeem?.operationId).toBe("createSession");
    expect(redeem?.responses["401"]?.["x-problem-codes"]).toEqual(["magic_link_expired", "magic_link_invalid", "magic_link_used"]);
    expect(redeem?.responses["403"]?.["x-problem-codes"]).toEqual(["csrf_failed"]);
    expect(Object.keys(redeem?.responses["200"]?.headers as object)).toContain("Set-Cookie");
    expect(op("/api/v1/auth/session", "get")?.operationId).toBe("getSession");
    expect(op("/api/v1/auth/session", "delete")?.operationId).toBe("deleteSession");

    const usage = op("/api/v1/usage", "get");
    expect(usage?.operationId).toBe("getUsage");
    expect(usage?.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ["from", "query", false],
      ["to", "query", false],
      ["group_by", "query", false],
    ]);
    expect(usage?.responses["400"]?.["x-problem-codes"]).toEqual(["bad_request"]);
    expect(usage?.security).toEqual([{ apiKey: [] }, { bearer: [] }, { sessionCookie: [] }]);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "__Host-session" });
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/dev"))).toEqual([]);
  });
});
