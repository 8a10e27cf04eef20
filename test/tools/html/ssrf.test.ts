import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { beaconHits, describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { pageTexts } from "../../support/pdf-text";
import { expectRefused, TO_PDF, toPdf } from "./helpers";

// URL sources obey the webhook SSRF rules with http allowed. The test run
// sets ALLOW_PRIVATE_WEBHOOK_TARGETS=true for the webhook tests: the renderer
// must not honour it; only the page server's exact origin is open
// (BROWSER_DEV_ALLOWED_ORIGINS).

const port = () => new URL(pageServer()).port;

describe("HTML to PDF: URL sources refused before any request", () => {
  it("runs with the webhook loopback switch on, which the renderer ignores", () => {
    expect(env.ALLOW_PRIVATE_WEBHOOK_TARGETS).toBe("true");
  });

  it.each([
    "http://127.1/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/",
    "http://localhost/",
    "http://app.localhost/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://0.0.0.0/",
    "https://[fe80::1]/",
    "ftp://example.com/file.html",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "not a url",
  ])("refuses %s with 422 url_refused, charging nothing", async (url) => {
    const { body } = await expectRefused(TO_PDF, { url }, 422, "url_refused");
    expect(body.detail).toContain("refused");
  });

  it("opens only the exact dev origin: another port or spelling of the same host stays refused", async () => {
    await expectRefused(TO_PDF, { url: `http://127.0.0.1:${Number(port()) + 1}/page` }, 422, "url_refused");
    await expectRefused(TO_PDF, { url: `http://localhost:${port()}/page` }, 422, "url_refused");
  });

  it("refuses a host name that cannot be resolved to public addresses", async () => {
    await expectRefused(TO_PDF, { url: "http://no-such-host.invalid/" }, 422, "url_refused");
  });
});

describeWithBrowser("HTML to PDF: redirects and sub-resources are checked too", () => {
  itWithBrowser("a sub-resource on a private address is not loaded, while the allowed origin's is", async () => {
    const blocked = `blocked-${crypto.randomUUID()}`;
    const allowed = `allowed-${crypto.randomUUID()}`;
    const refused = await toPdf({ url: `${pageServer()}/embed?src=${encodeURIComponent(`http://localhost:${port()}/beacon/${blocked}`)}` });
    expect(refused.body.meta.source).toBe("url");
    expect(await beaconHits(blocked)).toBe(0);
    await toPdf({ url: `${pageServer()}/embed?src=/beacon/${allowed}` });
    expect(await beaconHits(allowed)).toBe(1);
  });

  itWithBrowser("a sub-resource pointing at the metadata service is aborted and the page still renders", async () => {
    const { body } = await toPdf({ url: `${pageServer()}/embed?src=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}` });
    expect(body.meta.pages).toBe(1);
  });

  itWithBrowser("a redirect to a private address is refused with 422, charging nothing", async () => {
    const token = `redirect-${crypto.randomUUID()}`;
    const to = (target: string) => `${pageServer()}/redirect?to=${encodeURIComponent(target)}`;
    await expectRefused(TO_PDF, { url: to("http://169.254.169.254/latest/meta-data/") }, 422, "url_refused");
    await expectRefused(TO_PDF, { url: to(`http://localhost:${port()}/beacon/${token}`) }, 422, "url_refused");
    expect(await beaconHits(token)).toBe(0);
  });

  itWithBrowser("a redirect within allowed targets is followed", async () => {
    const { pdf } = await toPdf({ url: `${pageServer()}/redirect?to=/page` });
    expect((await pageTexts(pdf))[0]).toContain("Hello from the page server");
  });

  itWithBrowser("markup sources: a private sub-resource is never requested (the guard, backed by Chromium's local-network rules)", async () => {
    const token = `markup-${crypto.randomUUID()}`;
    await toPdf({ html: `<img src="http://localhost:${port()}/beacon/${token}"><p>x</p>` });
    expect(await beaconHits(token)).toBe(0);
  });

  // WebSockets and workers' traffic bypass request interception; before they
  // were disabled, each of these pages reached the page server's WebSocket.
  itWithBrowser.each([
    ["the page", (ws: string) => `new WebSocket(${JSON.stringify(ws)})`],
    ["an iframe", (ws: string) => `const f = document.createElement("iframe"); document.body.append(f); new f.contentWindow.WebSocket(${JSON.stringify(ws)})`],
    ["a worker", (ws: string) => `new Worker(URL.createObjectURL(new Blob([${JSON.stringify(`new WebSocket(${JSON.stringify(ws)})`)}])))`],
  ])("a WebSocket opened from %s never connects; the page still renders", async (_from, script) => {
    const token = `ws-${crypto.randomUUID()}`;
    const ws = `ws://127.0.0.1:${port()}/beacon/${token}`;
    const { body } = await toPdf({ url: `${pageServer()}/script?js=${encodeURIComponent(script(ws))}`, wait_delay: "300" });
    expect(body.meta.pages).toBe(1);
    expect(await beaconHits(token)).toBe(0);
  });
});
