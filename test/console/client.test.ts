import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createClient, isProblem } from "../../clients/typescript/src/index";
import { createAccount } from "../support/accounts";
import { BASE, download } from "../support/http";
import { pdfStructure } from "../support/pdf-read";
import { plainPdf } from "../support/pdf.mjs";

// The typed client (clients/typescript) against the Worker itself: the
// README's worked example runs as written (a scoped key with a budget, then
// Merge PDF on two files), errors arrive as typed problem bodies, and each
// credential preset sends what it should.

const worker = exports as unknown as { default: { fetch(req: Request): Promise<Response> } };
const viaWorker = (req: Request) => worker.default.fetch(req);

describe("clients/typescript", () => {
  it("runs the README's example: create a scoped key with a budget, merge two PDFs, download the result", async () => {
    const { token } = await createAccount({ credits: 1000 });
    const dashboard = createClient({ baseUrl: BASE, auth: { bearer: token }, fetch: viaWorker });
    const created = await dashboard.POST("/api/v1/keys", {
      body: { name: "merge-bot", permissions: ["read", "write"], scopes: ["pdf.merge"], credit_limit: 500 },
    });
    expect(created.error).toBeUndefined();
    expect(created.data?.scopes).toEqual(["pdf.merge"]);
    expect(created.data?.credit_limit).toBe(500);
    const apiKey = created.data!.api_key!;

    const api = createClient({ baseUrl: BASE, auth: { apiKey }, fetch: viaWorker });
    const form = new FormData();
    form.append("files", new File([await plainPdf(2, "a")], "a.pdf", { type: "application/pdf" }));
    form.append("files", new File([await plainPdf(3, "b")], "b.pdf", { type: "application/pdf" }));
    const merged = await api.POST("/api/v1/pdf/merge/merge", { body: form as never });
    expect(merged.error).toBeUndefined();
    expect(merged.response.headers.get("X-Credits-Charged")).toBe("10");
    expect(merged.data?.pages).toBe(5);
    const out = await download(merged.data!.output_url);
    expect((await pdfStructure(out)).pages).toBe(5);

    const account = await api.GET("/api/v1/account");
    expect(account.data?.balance).toBe(990);
  });

  it("answers a refused call as a typed problem body", async () => {
    const { token } = await createAccount({ credits: 1000 });
    const dashboard = createClient({ baseUrl: BASE, auth: { bearer: token }, fetch: viaWorker });
    const key = await dashboard.POST("/api/v1/keys", { body: { name: "merge only", scopes: ["pdf.merge"] } });
    const api = createClient({ baseUrl: BASE, auth: { apiKey: key.data!.api_key! }, fetch: viaWorker });
    const form = new FormData();
    form.append("file", new File([await plainPdf(2, "a")], "a.pdf", { type: "application/pdf" }));
    const split = await api.POST("/api/v1/pdf/split/split", { body: form as never });
    expect(split.data).toBeUndefined();
    expect(split.response.status).toBe(403);
    expect(isProblem(split.error)).toBe(true);
    expect(isProblem(split.error) && split.error.code).toBe("scope_denied");

    const anonymous = createClient({ baseUrl: BASE, auth: { anonymous: true }, fetch: viaWorker });
    const denied = await anonymous.GET("/api/v1/keys");
    expect(denied.response.status).toBe(401);
    expect(isProblem(denied.error) && denied.error.code).toBe("unauthorized");
  });

  it("sends each credential as its preset says, and the CSRF token only on changes", async () => {
    const seen: Request[] = [];
    const spy = async (req: Request) => {
      seen.push(req.clone());
      return new Response("{}", { headers: { "Content-Type": "application/json" } });
    };
    let csrf: string | null = "csrf-1";
    const session = createClient({ baseUrl: BASE, auth: { session: { csrfToken: () => csrf } }, fetch: spy });
    await session.GET("/api/v1/account");
    await session.POST("/api/v1/webhooks/{id}/test", { params: { path: { id: "wh_1" } } });
    await session.DELETE("/api/v1/keys/{keyId}", { params: { path: { keyId: "k1" } } });
    csrf = null;
    await session.POST("/api/v1/keys", { body: { name: "x" } });
    expect(seen.map((r) => r.headers.get("X-CSRF-Token"))).toEqual([null, "csrf-1", "csrf-1", null]);
    expect(seen.every((r) => !r.headers.has("Authorization") && !r.headers.has("X-API-Key"))).toBe(true);

    seen.length = 0;
    await createClient({ baseUrl: BASE, auth: { apiKey: "dt_live_x" }, fetch: spy }).GET("/api/v1/account");
    await createClient({ baseUrl: BASE, auth: { bearer: "jwt-1" }, fetch: spy }).GET("/api/v1/keys");
    expect(seen[0].headers.get("X-API-Key")).toBe("dt_live_x");
    expect(seen[1].headers.get("Authorization")).toBe("Bearer jwt-1");
    expect(seen.every((r) => !r.headers.has("X-CSRF-Token"))).toBe(true);
  });
});
