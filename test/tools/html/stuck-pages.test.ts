import { expect } from "vitest";
import { describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { file, postForm, problem } from "../../support/http";
import { pageTexts } from "../../support/pdf-text";
import { expectRefused, PREVIEW, TO_PDF, toPdf } from "./helpers";

// A page whose script never returns: puppeteer's evaluate, pdf() and
// screenshot() have no timeout of their own short of the 180 s protocol
// timeout, so each step of a render is raced against its deadline
// (BROWSER_PAGE_TIMEOUT_MS, 6 s in tests). The call must answer 422
// page_load_timeout soon after the deadline, refunded, and the browser pool
// must serve the next render at once.

const PAGE_TIMEOUT_MS = 6_000;
/** The deadline plus clean-up (closing the context) and the call's own work. */
const ANSWER_WITHIN_MS = PAGE_TIMEOUT_MS + 5_000;

const SPIN = "for (;;) {}";
const SPINNERS: [string, string][] = [
  ["after setTimeout(..., 0)", `setTimeout(() => { ${SPIN} }, 0)`],
  ["in onload", `onload = () => { ${SPIN} }`],
  // Loading finishes; the spin starts when the render's first step on the loaded page (the web-font wait) reads document.fonts.
  // (A timer set off by the load event raced the render: a fast Chromium printed the page before it fired.)
  ["once the render reads the loaded page", `Object.defineProperty(document, "fonts", { get() { ${SPIN} } })`],
];

const spinningUrl = (js: string) => `${pageServer()}/script?js=${encodeURIComponent(js)}`;

async function timed<T>(run: () => Promise<T>): Promise<{ out: T; ms: number }> {
  const started = Date.now();
  const out = await run();
  return { out, ms: Date.now() - started };
}

/** A plain render right after, on the same pool, succeeds quickly. */
async function nextRenderWorks() {
  const { out, ms } = await timed(() => toPdf({ html: "<p>the next render</p>" }));
  expect((await pageTexts(out.pdf))[0]).toContain("the next render");
  expect(ms).toBeLessThan(5_000);
}

describeWithBrowser("HTML to PDF: a page that spins forever", () => {
  itWithBrowser.each(SPINNERS)("a url page spinning %s answers 422 page_load_timeout in time, and the next render works", async (_when, js) => {
    const { out, ms } = await timed(() => expectRefused(TO_PDF, { url: spinningUrl(js) }, 422, "page_load_timeout"));
    expect(out.body.detail).toContain("nothing was charged");
    // The last spinner lets loading finish: what timed out is a step on the loaded page (fonts, printing), bounded only by the deadline race.
    if (js === SPINNERS[2][1]) expect(out.body.detail).not.toMatch(/^Loading the page/);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    await nextRenderWorks();
  });

  itWithBrowser.each(SPINNERS)("markup spinning %s answers 422 page_load_timeout in time", async (_when, js) => {
    const { ms } = await timed(() => expectRefused(TO_PDF, { html: `<p>spinning</p><script>${js}</script>` }, 422, "page_load_timeout"));
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });

  itWithBrowser("a wait_for_expression that never returns answers 422 page_load_timeout in time", async () => {
    const { ms } = await timed(() => expectRefused(TO_PDF, { html: "<p>x</p>", wait_for_expression: `(() => { ${SPIN} })()` }, 422, "page_load_timeout"));
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    await nextRenderWorks();
  });

  itWithBrowser("one_long_page and outline (more steps in the page) on a spinning page answer 422 page_load_timeout", async () => {
    const js = SPINNERS[2][1];
    const { ms } = await timed(() => expectRefused(TO_PDF, { url: spinningUrl(js), one_long_page: "true", outline: "true" }, 422, "page_load_timeout"));
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });

  itWithBrowser("HTML preview of a spinning page answers 422 page_load_timeout in time", async () => {
    const { ms } = await timed(() => expectRefused(PREVIEW, { url: spinningUrl(SPINNERS[2][1]), full_page: "true" }, 422, "page_load_timeout"));
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    await nextRenderWorks();
  });

  // Anonymous HTML to PDF through Convert document (free-try; docs/tools/convert-document.md): no account, an .html upload.
  itWithBrowser.each(SPINNERS)("anonymous Convert document of an .html file spinning %s answers 422 page_load_timeout", async (_when, js) => {
    const html = new TextEncoder().encode(`<!doctype html><p>spinning</p><script>${js}</script>`);
    const { out: res, ms } = await timed(() => postForm("/api/v1/conversion/single", { file: file(html, "spin.html", "text/html"), target_format: "pdf" }));
    const body = await problem(res);
    expect({ status: res.status, code: body.code }).toEqual({ status: 422, code: "page_load_timeout" });
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });

  itWithBrowser("anonymous Convert document works again right after", async () => {
    const html = new TextEncoder().encode("<!doctype html><h1>Converted after a stuck page</h1>");
    const res = await postForm("/api/v1/conversion/single", { file: file(html, "ok.html", "text/html"), target_format: "pdf" });
    expect(res.status).toBe(200);
  });
});
