import { PDFDocument } from "pdf-lib";
import { expect } from "vitest";
import { beaconHits, describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { download, postForm, problem } from "../../support/http";
import { pageTexts, squash } from "../../support/pdf-text";
import { caller, expectRefused, keyHeaders, PREVIEW, TO_PDF } from "./helpers";

// A page that navigates itself after (or while) loading used to fail the
// call with a 500 ("Execution context was destroyed") when a step ran in the
// document that was going away. Now a step meets the page it lands on; the
// answer is a PDF of that page or a 4xx problem, never a 5xx. Navigations
// still pass the URL guard.

const script = (js: string) => `${pageServer()}/script?js=${encodeURIComponent(js)}`;

/** 200 with a valid PDF (whose text is returned), or a 4xx problem+json (null); anything else fails. */
async function renderedOr4xx(fields: Parameters<typeof postForm>[1]): Promise<string | null> {
  const res = await postForm(TO_PDF, fields, keyHeaders(await caller()));
  if (res.status === 200) {
    const pdf = await download(((await res.json()) as { url: string }).url);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThan(0);
    return (await pageTexts(pdf)).join("\n");
  }
  const body = await problem(res);
  expect(res.status, `${body.code}: ${body.detail}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${body.code}: ${body.detail}`).toBeLessThan(500);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  return null;
}

describeWithBrowser("HTML to PDF: pages that navigate themselves", () => {
  itWithBrowser("a script assigning location renders the page it lands on", async () => {
    const text = await renderedOr4xx({ url: script(`setTimeout(() => { location = "/page"; }, 30)`), wait_delay: "500" });
    expect(text).toContain("Hello from the page server");
  });

  itWithBrowser("a meta refresh to about:blank renders (the blank page) or answers 4xx", async () => {
    const text = await renderedOr4xx({ html: `<meta http-equiv="refresh" content="0;url=about:blank"><p>before the refresh</p>`, wait_delay: "300" });
    expect(text === null || !text.includes("before the refresh")).toBe(true);
  });

  itWithBrowser("a form submitted on load (POST) renders the page it lands on", async () => {
    const html = `<form id=f method=post action="${pageServer()}/page"><input name=a value=1></form><script>document.getElementById("f").submit()</script>`;
    const text = await renderedOr4xx({ html, wait_delay: "500" });
    expect(text).toContain("Hello from the page server");
  });

  itWithBrowser("a page that reloads itself once renders after the reload", async () => {
    const js = `if (!sessionStorage.getItem("reloaded")) { sessionStorage.setItem("reloaded", "1"); setTimeout(() => location.reload(), 30); } else { document.body.append(" RELOADED "); }`;
    const text = await renderedOr4xx({ url: script(js), wait_delay: "500" });
    expect(squash(text ?? "")).toContain("RELOADED");
  });

  itWithBrowser("a page that reloads itself forever answers 422 page_load_timeout", async () => {
    await expectRefused(TO_PDF, { url: script("setTimeout(() => location.reload(), 10)") }, 422, "page_load_timeout");
  });

  itWithBrowser("a page that navigates itself to a refused address answers 422 url_refused and never reaches it", async () => {
    const port = new URL(pageServer()).port;
    const token = `navigate-${crypto.randomUUID()}`;
    const js = `setTimeout(() => { location = "http://localhost:${port}/beacon/${token}"; }, 30)`;
    await expectRefused(TO_PDF, { url: script(js), wait_delay: "500" }, 422, "url_refused");
    expect(await beaconHits(token)).toBe(0);
  });

  // Navigating the moment the page has loaded, when the render's first steps run in the document that is going away.
  itWithBrowser.each([
    ["location", { url: script(`onload = () => { location = "/page"; }`) }],
    ["meta refresh", { html: `<meta http-equiv="refresh" content="0;url=about:blank"><p>x</p>` }],
    [
      "form auto-submit",
      { html: `<form id=f method=post action="${pageServer()}/page"></form><script>onload = () => document.getElementById("f").submit()</script>` },
    ],
    ["location.reload", { url: script(`onload = () => { if (!sessionStorage.getItem("r")) { sessionStorage.setItem("r", "1"); location.reload(); } }`) }],
  ])("%s right at load answers 200 with a PDF or a 4xx, never a 5xx", async (_how, fields) => {
    await renderedOr4xx(fields);
  });

  itWithBrowser("HTML preview of a self-navigating page captures the page it lands on", async () => {
    const res = await postForm(PREVIEW, { url: script(`setTimeout(() => { location = "/page"; }, 30)`), wait_delay: "500" }, keyHeaders(await caller()));
    expect(res.status).toBe(200);
  });
});
