import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isAdHost } from "../../../src/engines/browser/ad-hosts";
import { pageFormatNamed } from "../../../src/engines/browser/paper";
import { runningTemplates } from "../../../src/engines/browser/templates";
import { refusalOf } from "../../../src/engines/browser/url-policy";
import type { Env } from "../../../src/env";
import { settingsOf } from "../../../src/settings";

// The pure rules of the browser engine, without a browser.

const noDns = async () => {
  throw new Error("no DNS in this test");
};

describe("renderer URL policy", () => {
  it("opens exactly the listed dev origins and nothing else on that host", async () => {
    const policy = { devOrigins: new Set(["http://127.0.0.1:8788"]), resolve: noDns };
    expect(await refusalOf("http://127.0.0.1:8788/page", policy)).toBeNull();
    expect(await refusalOf("http://127.0.0.1:8789/page", policy)).toMatch(/loopback/);
    expect(await refusalOf("http://localhost:8788/page", policy)).toMatch(/loopback/);
    expect(await refusalOf("https://127.0.0.1:8788/page", policy)).toMatch(/loopback/);
  });

  it("allows public http and https targets whose names resolve to public addresses", async () => {
    const policy = { devOrigins: new Set<string>(), resolve: async () => ["93.184.215.14"] };
    expect(await refusalOf("http://example.com/", policy)).toBeNull();
    expect(await refusalOf("https://example.com/a.css", policy)).toBeNull();
  });

  it("refuses a name that resolves to a private address (any of its addresses)", async () => {
    const policy = { devOrigins: new Set<string>(), resolve: async () => ["93.184.215.14", "10.1.2.3"] };
    expect(await refusalOf("https://sneaky.example/", policy)).toMatch(/10\.1\.2\.3/);
  });

  it("accepts only loopback origins in BROWSER_DEV_ALLOWED_ORIGINS, so production cannot be opened to private or metadata targets", () => {
    const base = { JWT_SECRET: "x".repeat(32) } as unknown as Env;
    expect(settingsOf({ ...base, BROWSER_DEV_ALLOWED_ORIGINS: "http://127.0.0.1:8788, http://localhost:3000" }).BROWSER_DEV_ALLOWED_ORIGINS).toEqual([
      "http://127.0.0.1:8788",
      "http://localhost:3000",
    ]);
    for (const bad of ["http://169.254.169.254", "http://10.0.0.1:80", "https://example.com", "http://127.0.0.1:8788/path"]) {
      expect(() => settingsOf({ ...base, BROWSER_DEV_ALLOWED_ORIGINS: bad }), bad).toThrow(/BROWSER_DEV_ALLOWED_ORIGINS/);
    }
  });

  it("is not opened by the webhook switches the test run sets", async () => {
    expect(env.ALLOW_PRIVATE_WEBHOOK_TARGETS).toBe("true");
    expect(settingsOf(env).BROWSER_DEV_ALLOWED_ORIGINS.every((o) => o.startsWith("http://127.0.0.1:"))).toBe(true);
  });
});

describe("renderer tables", () => {
  it("names page formats in any case and knows no others", () => {
    expect(pageFormatNamed("letter")).toBe("Letter");
    expect(pageFormatNamed(" a0 ")).toBe("A0");
    expect(pageFormatNamed("B5")).toBeNull();
  });

  it("matches ad hosts and their subdomains only", () => {
    expect(isAdHost("securepubads.g.doubleclick.net")).toBe(true);
    expect(isAdHost("doubleclick.net.")).toBe(true);
    expect(isAdHost("notdoubleclick.net")).toBe(false);
    expect(isAdHost("example.com")).toBe(false);
  });

  it("lets footer_html override page_numbers and suppresses Chromium's default header", () => {
    expect(runningTemplates({})).toBeNull();
    const numbers = runningTemplates({ pageNumbers: true });
    expect(numbers?.footerTemplate).toContain('class="totalPages"');
    expect(numbers?.headerTemplate).toBe("<span></span>");
    const custom = runningTemplates({ pageNumbers: true, footerHtml: "FOOT" });
    expect(custom?.footerTemplate).toContain("FOOT");
    expect(custom?.footerTemplate).not.toContain("Page ");
  });
});
