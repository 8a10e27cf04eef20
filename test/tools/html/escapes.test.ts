import { expect } from "vitest";
import { describeWithBrowser, escapeListener, itWithBrowser, pageServer } from "../../support/browser";
import { postForm } from "../../support/http";
import { pageTexts, squash } from "../../support/pdf-text";
import { caller, keyHeaders, TO_PDF, toPdf } from "./helpers";

// Ways a page's script could reach a network without passing request
// interception, each aimed at a loopback listener of the page server that no
// rule allows (a port of 127.0.0.1 other than the page server's). Before
// in-page-guard.ts and browser-guard.ts, the popups, WebSocketStream,
// WebRTC and speculation rules below each reached such a listener; after the
// render the listener must have seen nothing, and the call answers 200.

type Vector = [string, (host: string) => string];

const VECTORS: Vector[] = [
  ["window.open", (h) => `window.open("http://${h}/popup")`],
  ["window.open with noopener", (h) => `window.open("http://${h}/popup", "_blank", "noopener")`],
  ["document.open with three arguments", (h) => `document.open("http://${h}/popup", "x", "")`],
  [
    "a target=_blank link clicked",
    (h) => `const a = document.createElement("a"); a.href = "http://${h}/popup"; a.target = "_blank"; document.body.append(a); a.click()`,
  ],
  ["a detached target=_blank link clicked", (h) => `const a = document.createElement("a"); a.href = "http://${h}/popup"; a.target = "_blank"; a.click()`],
  [
    "a ctrl-click on a link",
    (h) =>
      `const a = document.createElement("a"); a.href = "http://${h}/popup"; document.body.append(a); a.dispatchEvent(new MouseEvent("click", { ctrlKey: true }))`,
  ],
  [
    "a form submitted to a new window",
    (h) => `const f = document.createElement("form"); f.action = "http://${h}/popup"; f.target = "_blank"; document.body.append(f); f.submit()`,
  ],
  ["WebSocketStream", (h) => `new WebSocketStream("ws://${h}/ws")`],
  ["WebSocket", (h) => `new WebSocket("ws://${h}/ws")`],
  [
    "RTCPeerConnection with a TURN server over TCP",
    (h) =>
      `const pc = new RTCPeerConnection({ iceServers: [{ urls: "turn:${h}?transport=tcp", username: "u", credential: "p" }] }); pc.createDataChannel("d"); pc.createOffer().then((o) => pc.setLocalDescription(o))`,
  ],
  [
    "webkitRTCPeerConnection with STUN and TURN over UDP",
    (h) =>
      `const pc = new webkitRTCPeerConnection({ iceServers: [{ urls: "stun:${h}" }, { urls: "turn:${h}", username: "u", credential: "p" }] }); pc.createDataChannel("d"); pc.createOffer().then((o) => pc.setLocalDescription(o))`,
  ],
  ["EventSource", (h) => `new EventSource("http://${h}/events")`],
  ["navigator.sendBeacon", (h) => `if (navigator.sendBeacon("http://${h}/beacon", "data")) throw new Error("beacon queued")`],
  ["fetchLater", (h) => `fetchLater("http://${h}/later", { activateAfter: 0 })`],
  [
    "speculation rules added by script",
    (h) =>
      `const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = JSON.stringify({ prefetch: [{ source: "list", urls: ["http://${h}/prefetch"] }], prerender: [{ source: "list", urls: ["http://${h}/prerender"] }] }); document.head.append(s)`,
  ],
  ["a prerender link", (h) => `const l = document.createElement("link"); l.rel = "prerender"; l.href = "http://${h}/prerender"; document.head.append(l)`],
];

/** A page of the allowed origin that runs `vector`, then writes whether it was refused and that it ran. */
function pageRunning(vector: string): string {
  const js = `try { ${vector} } catch (e) { document.body.append(" refused " + e.name + " "); } document.body.append(" script ran ");`;
  return `${pageServer()}/script?js=${encodeURIComponent(js)}`;
}

describeWithBrowser("HTML to PDF: a page's script cannot reach a network past the guard", () => {
  itWithBrowser.each(VECTORS)("%s never connects; the page still renders", async (name, vector) => {
    const token = `escape-${crypto.randomUUID()}`;
    const { port } = await escapeListener(token);
    const { pdf } = await toPdf({ url: pageRunning(vector(`127.0.0.1:${port}`)), wait_delay: "800" });
    expect(squash((await pageTexts(pdf)).join(" ")), name).toContain("scriptran");
    expect((await escapeListener(token)).connections, name).toBe(0);
  });

  itWithBrowser("speculation rules in the markup itself are removed before Chromium prefetches them", async () => {
    const token = `escape-${crypto.randomUUID()}`;
    const { port } = await escapeListener(token);
    const rules = JSON.stringify({
      prefetch: [{ source: "list", urls: [`http://127.0.0.1:${port}/a`] }],
      prerender: [{ source: "list", urls: [`http://127.0.0.1:${port}/b`] }],
    });
    await toPdf({ html: `<script type="speculationrules">${rules}</script><p>rules</p>`, wait_delay: "800" });
    expect((await escapeListener(token)).connections).toBe(0);
  });

  itWithBrowser("a cross-site frame (its own renderer process) gets the same guard", async () => {
    const token = `escape-${crypto.randomUUID()}`;
    const { port } = await escapeListener(token);
    // The markup's origin is http://document.invalid, so a frame of the page server is cross-site.
    const frame = pageRunning(`new WebSocket("ws://127.0.0.1:${port}/ws"); window.open("http://127.0.0.1:${port}/popup")`);
    const res = await postForm(TO_PDF, { html: `<p>outer</p><iframe src="${frame}"></iframe>`, wait_delay: "800" }, keyHeaders(await caller()));
    expect(res.status).toBe(200);
    expect((await escapeListener(token)).connections).toBe(0);
  });

  itWithBrowser("the removed APIs report themselves unavailable to the page", async () => {
    const probes = [
      "typeof WebSocketStream === 'function' && (() => { try { new WebSocketStream('ws://x'); return 'open'; } catch (e) { return e.name; } })()",
      "(() => { try { new RTCPeerConnection(); return 'open'; } catch (e) { return e.name; } })()",
      "String(window.open('about:blank'))",
      "String(navigator.sendBeacon('/x', 'y'))",
    ];
    const js = `Promise.all([${probes.join(",")}, navigator.serviceWorker.register('/sw.js').then(() => 'registered', (e) => e.name)]).then((r) => document.body.append(' probes ' + r.join(' ')))`;
    const { pdf } = await toPdf({ url: `${pageServer()}/script?js=${encodeURIComponent(js)}`, wait_delay: "300" });
    expect(squash((await pageTexts(pdf)).join(" "))).toContain("probesSecurityErrorSecurityErrornullfalseSecurityError");
  });
});
