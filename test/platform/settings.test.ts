import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import type { Env } from "../../src/env";
import { toBase64Url } from "../../src/secrets/encoding";
import { signKey } from "../../src/storage/signed-url";
import { problem } from "../support/http";

// settings.ts and secrets/keys.ts: the environment is checked once, a bad or
// missing setting is a 503 naming it, and file links are signed with a key
// derived for that use. Dashboard JWTs are HS256 under JWT_SECRET itself, as
// docs/reference/accounts-and-keys.md defines them: test/auth/dashboard-jwt.test.ts covers those.

const app = buildApp();
const fetchWith = (overrides: Partial<Record<keyof Env, string | undefined>>, path: string) =>
  app.fetch(new Request(`http://api.test${path}`), { ...env, ...overrides }, createExecutionContext());

describe("configuration", () => {
  it.each([
    ["a missing JWT_SECRET", { JWT_SECRET: undefined }, "JWT_SECRET is not set"],
    ["a JWT_SECRET under 16 characters", { JWT_SECRET: "short" }, "JWT_SECRET must be at least 16 characters"],
    ["a PUBLIC_FILES_BASE_URL that is not a URL", { PUBLIC_FILES_BASE_URL: "files.example.com" }, "PUBLIC_FILES_BASE_URL must be an absolute URL"],
    ["a CONSOLE_ORIGIN with a path", { CONSOLE_ORIGIN: "https://console.example.com/app" }, "CONSOLE_ORIGIN must be an origin only"],
    ["a webhook switch that is neither true nor false", { ALLOW_INSECURE_WEBHOOKS: "yes" }, "ALLOW_INSECURE_WEBHOOKS"],
  ])("%s is a 503 problem naming it, on every route but the index", async (_label, overrides, says) => {
    for (const path of ["/api/v1/account", "/api/v1/redact/entity-types", "/openapi.json"]) {
      const res = await fetchWith(overrides, path);
      expect(res.status, path).toBe(503);
      const body = await problem(res);
      expect(body.code).toBe("service_unavailable");
      expect(body.detail).toContain(says);
    }
    expect((await fetchWith(overrides, "/")).status).toBe(200);
  });

  it("a complete configuration serves as usual", async () => {
    expect((await fetchWith({}, "/api/v1/redact/entity-types")).status).toBe(200);
  });
});

describe("keys derived per use", () => {
  it("file links are not an HMAC under JWT_SECRET itself, and FILES_SIGNING_SECRET changes them", async () => {
    const rawKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(env.JWT_SECRET!), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const raw = toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", rawKey, new TextEncoder().encode("outputs/x.pdf\n2000000000"))));
    const ours = await signKey(env, "outputs/x.pdf", 2_000_000_000);
    expect(ours).not.toBe(raw);
    expect(await signKey({ ...env, FILES_SIGNING_SECRET: "another-secret-0123456789" }, "outputs/x.pdf", 2_000_000_000)).not.toBe(ours);
  });
});
