import puppeteer from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderHtmlToPdf } from "../../../src/engines/browser";
import { withBrowser } from "../../../src/engines/browser/session";
import { ApiError } from "../../../src/errors";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { pageTexts } from "../../support/pdf-text";

// The browser is a scarce shared resource (Browser Rendering: 120 concurrent
// browsers per paid account, 1 new per second; 3 on free): calls reuse idle
// browsers and answer 503 with Retry-After when none can be had.

describeWithBrowser("browser sessions", () => {
  itWithBrowser("later renders reuse the browser the first left running instead of launching more", async () => {
    await renderHtmlToPdf(env, "<p>one</p>");
    const after1 = (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId).sort();
    expect(after1.length).toBeGreaterThan(0);
    for (const word of ["two", "three"]) await renderHtmlToPdf(env, `<p>${word}</p>`);
    const after3 = (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId).sort();
    expect(after3).toEqual(after1);
  });

  itWithBrowser("concurrent renders each get a browser and a correct PDF", async () => {
    const words = ["alpha", "bravo", "charlie", "delta"];
    const results = await Promise.all(words.map((w) => renderHtmlToPdf(env, `<p>${w}</p><p style="page-break-before:always">${w} two</p>`)));
    expect(results.map((r) => r.pages)).toEqual([2, 2, 2, 2]);
    const texts = await Promise.all(results.map(async (r) => (await pageTexts(r.pdf))[0]));
    words.forEach((w, i) => expect(texts[i]).toContain(w));
  });
});

describe("browser unavailable", () => {
  it("answers 503 browser_unavailable with Retry-After when the binding refuses every browser", async () => {
    let asked = 0;
    const full = {
      fetch: async () => {
        asked++;
        return new Response("Too many browsers already running", { status: 429 });
      },
    } as unknown as Fetcher;
    const err = await withBrowser(full, async () => "never").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect((err as ApiError).code).toBe("browser_unavailable");
    expect(Number((err as ApiError).headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(asked).toBeGreaterThan(1); // it waited and retried before giving up
  });

  it("answers 503 when no BROWSER binding is configured", async () => {
    const err = await withBrowser(undefined, async () => "never").catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("browser_unavailable");
  });
});
