import { describe, expect, it } from "vitest";
import { call } from "../support/http";

// /console as the Worker serves it: one page shell for every console path,
// with a policy that forbids inline script and style and framing; script and
// style as files of their own; unknown pages are the ordinary 404 problem.

const PAGES = ["/console", "/console/sign-in", "/console/invite", "/console/keys", "/console/webhooks", "/console/team", "/console/playground"];

describe("/console", () => {
  it.each(PAGES)("%s answers the page shell under a strict policy", async (path) => {
    const res = await call(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    for (const rule of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"])
      expect(csp).toContain(rule);
    expect(csp).not.toContain("unsafe-inline");
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    // No inline script or style anywhere in the shell.
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html).not.toMatch(/<style|style=/);
  });

  it("serves the script and style it names, built from console/src", async () => {
    const js = await call("/console/app.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    const script = await js.text();
    // The typed client is bundled in: it calls the session route and sends the CSRF header.
    expect(script).toContain("/api/v1/auth/session");
    expect(script).toContain("X-CSRF-Token");
    // The page never parses markup from strings.
    expect(script).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML|document\.write/);
    const css = await call("/console/app.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toBe("text/css; charset=utf-8");
    expect((await css.text()).length).toBeGreaterThan(500);
  });

  it("serves the typed client's README, linked from every page", async () => {
    const res = await call("/console/client/README.md");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toContain("createClient");
  });

  it("answers 404 problem+json for a page that does not exist", async () => {
    const res = await call("/console/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("not_found");
  });

  it("is listed in /openapi.json like every other route", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, unknown> };
    for (const path of ["/console", "/console/{page}", "/console/app.js", "/console/app.css", "/console/client/README.md"])
      expect(doc.paths[path]).toBeDefined();
  });
});
