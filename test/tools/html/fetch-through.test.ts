import { expect } from "vitest";
import { describeWithBrowser, itWithBrowser, pageServer, seenHeaders } from "../../support/browser";
import { toPdf } from "./helpers";

// DNS rebinding: the URL policy resolves a name, and if Chromium fetched the
// URL it would resolve the name again, possibly to a private address. So
// every request the policy approves is fetched by the Worker and answered to
// the browser: Chromium makes none itself. The Worker's fetch marks each
// request with a CF-Worker header (workerd does so locally as Cloudflare does
// in production); a request Chromium made itself has none. The page server
// records the header names of each request to /headers/<token>.

describeWithBrowser("HTML to PDF: every request of the page is made by the Worker, not the browser", () => {
  itWithBrowser("redirect hops, images, style sheets, fetch, XHR, frames and form posts all arrive from the Worker", async () => {
    const token = `through-${crypto.randomUUID()}`;
    const at = `/headers/${token}`;
    const js = [
      `fetch("${at}?fetch")`,
      `const x = new XMLHttpRequest(); x.open("GET", "${at}?xhr"); x.send()`,
      `fetch("${at}?put", { method: "PUT", headers: { "X-Custom": "1" }, body: "data" })`,
      `const i = new Image(); i.src = "/redirect?to=${encodeURIComponent(`${at}?redirected`)}"; document.body.append(i)`,
      `const l = document.createElement("link"); l.rel = "stylesheet"; l.href = "${at}?css"; document.head.append(l)`,
      `const f = document.createElement("iframe"); f.src = "${at}?frame"; document.body.append(f)`,
      `const form = document.createElement("form"); form.method = "post"; form.action = "${at}?post"; form.target = "sink"; const sink = document.createElement("iframe"); sink.name = "sink"; document.body.append(sink, form); form.submit()`,
    ].join(";\n");
    const { body } = await toPdf({ url: `${pageServer()}/redirect?to=${encodeURIComponent(`/script?js=${encodeURIComponent(js)}`)}`, wait_delay: "800" });
    expect(body.meta.pages).toBe(1);
    const requests = await seenHeaders(token);
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const names of requests) expect(names).toContain("cf-worker");
  });

  itWithBrowser("the document itself (after a redirect) and a markup source's references arrive from the Worker too", async () => {
    const token = `through-${crypto.randomUUID()}`;
    await toPdf({ url: `${pageServer()}/redirect?to=${encodeURIComponent(`/headers/${token}?document`)}` });
    await toPdf({ html: `<img src="${pageServer()}/headers/${token}"><iframe src="${pageServer()}/headers/${token}?frame"></iframe>` });
    const requests = await seenHeaders(token);
    expect(requests.length).toBe(3);
    for (const names of requests) expect(names).toContain("cf-worker");
  });
});
