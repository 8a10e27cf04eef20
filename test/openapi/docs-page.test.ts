import { describe, expect, it } from "vitest";
import { call } from "../support/http";

// /docs under a strict Content-Security-Policy: no inline script or style,
// requests to this origin only. The page's behaviour in a browser is
// test/e2e/docs.test.mjs; this checks what a browser is told.

describe("/docs", () => {
  it("is HTML under a policy that forbids inline script and other origins", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    const html = await res.text();
    // Every script and style is a file of this origin, so the policy lets it run.
    expect(html.match(/<script(?![^>]*\ssrc="\/docs\/app\.js")[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
    expect(html).toContain('src="/docs/app.js"');
    expect(html).toContain('href="/docs/app.css"');
  });

  it("serves its script and style from this origin with their types", async () => {
    const js = await call("/docs/app.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("Content-Type")).toContain("text/javascript");
    expect(await js.text()).toContain("/openapi.json");
    const css = await call("/docs/app.css");
    expect(css.headers.get("Content-Type")).toContain("text/css");
  });

  it("/docs/ and /console/ redirect to the pages people meant; an API path with a slash stays a 404", async () => {
    for (const page of ["/docs", "/console"]) {
      const res = await call(`${page}/`, { redirect: "manual" });
      expect(res.status, page).toBe(301);
      expect(new URL(res.headers.get("Location") ?? "", "http://api.test").pathname).toBe(page);
    }
    expect((await call("/api/v1/account/")).status).toBe(404);
  });
});
