// The script run in every frame before its own scripts
// (page.evaluateOnNewDocument, which puppeteer also installs in out-of-process
// frames). It removes what a page could use to reach a network without
// passing request interception (network.ts), each seen reaching a loopback
// listener in tests before it was removed:
//
// - WebSocket and WebSocketStream handshakes, WebTransport, and everything a
//   Worker or SharedWorker does are not intercepted, and Chromium's
//   blocked-URL list does not stop them.
// - RTCPeerConnection gathers ICE candidates from STUN/TURN servers the page
//   names: UDP and TCP straight from the browser.
// - Speculation rules (<script type="speculationrules">) prefetch and
//   prerender from the browser process, invisible to page and browser-level
//   interception alike; removing the rule's element before Chromium reads it
//   cancels it.
// - window.open and links or forms aimed at a new window open a page of their
//   own that the render's interception does not cover. The browser-level
//   guard (browser-guard.ts) closes such a page and fails its requests, but
//   Chromium may still open a TCP connection for it first, so it is stopped
//   here.
// - EventSource, navigator.sendBeacon, fetchLater and service workers are
//   intercepted (or bypassed) today but are not needed to print a document and
//   outlive the page in ways a later Chromium may not intercept.
//
// Printing needs none of these; a page that uses them renders without them.
// Every replacement is pinned (not writable, not configurable) so the page
// cannot put the original back.

export const DISABLE_UNGUARDED_NETWORK = `(() => {
  const pin = (target, name, value) => {
    try { Object.defineProperty(target, name, { value, writable: false, configurable: false }); } catch {}
  };
  const refused = (name) => new DOMException(name + " is not available while rendering", "SecurityError");
  const thrower = (name) => function () { throw refused(name); };
  for (const name of ["WebSocket", "WebSocketStream", "WebTransport", "Worker", "SharedWorker", "RTCPeerConnection",
    "webkitRTCPeerConnection", "mozRTCPeerConnection", "EventSource", "fetchLater"]) pin(globalThis, name, thrower(name));
  if (globalThis.Navigator) pin(Navigator.prototype, "sendBeacon", () => false);
  if (globalThis.ServiceWorkerContainer) pin(ServiceWorkerContainer.prototype, "register", () => Promise.reject(refused("A service worker")));

  // Speculation rules and legacy prerender links, removed as they are inserted.
  const speculative = (n) => n.nodeType === 1 && ((n.localName === "script" && (n.getAttribute("type") || "").trim().toLowerCase() === "speculationrules")
    || (n.localName === "link" && /(^|\\s)prerender(\\s|$)/i.test(n.getAttribute("rel") || "")));
  const sweep = (records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (speculative(n)) n.remove();
      else if (n.nodeType === 1 && n.querySelectorAll) for (const m of n.querySelectorAll("script, link")) if (speculative(m)) m.remove();
    }
  };
  const watch = (root) => new MutationObserver(sweep).observe(root, { childList: true, subtree: true });
  watch(document);
  const attachShadow = Element.prototype.attachShadow;
  pin(Element.prototype, "attachShadow", function (init) { const root = attachShadow.call(this, init); watch(root); return root; });
  if (globalThis.HTMLScriptElement && HTMLScriptElement.supports) {
    const supports = HTMLScriptElement.supports;
    pin(HTMLScriptElement, "supports", (type) => String(type).trim().toLowerCase() !== "speculationrules" && supports.call(HTMLScriptElement, type));
  }

  // New windows. A target that names no frame of this document opens one, as do modifier clicks.
  pin(globalThis, "open", () => null);
  const documentOpen = Document.prototype.open;
  pin(Document.prototype, "open", function (...args) { return args.length >= 3 ? null : documentOpen.apply(this, args); });
  const baseTarget = (doc) => (doc.querySelector("base[target]") || { getAttribute: () => "" }).getAttribute("target") || "";
  const newWindow = (raw) => {
    const t = (raw || "").trim();
    if (["", "_self", "_parent", "_top"].includes(t.toLowerCase())) return false;
    if (t.toLowerCase() === "_blank") return true;
    if (t === window.name) return false;
    return !Array.from(document.querySelectorAll("iframe[name], frame[name]")).some((f) => f.name === t);
  };
  const linkOf = (node) => (node && node.closest ? node.closest("a[href], area[href]") : null);
  const targetOf = (el) => (el.hasAttribute("target") ? el.getAttribute("target") : baseTarget(el.ownerDocument));
  // A synthetic click need not be cancelable, so the link is disarmed instead: no href while the click is dispatched.
  const disarm = (a) => {
    const href = a.getAttribute("href");
    a.removeAttribute("href");
    setTimeout(() => { if (!a.hasAttribute("href")) a.setAttribute("href", href); }, 0);
  };
  const guardClick = (e) => {
    const a = linkOf(e.target);
    if (a && (newWindow(targetOf(a)) || e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1)) disarm(a);
  };
  addEventListener("click", guardClick, true);
  addEventListener("auxclick", guardClick, true);
  // Events on an element outside the document never reach the window's listeners.
  const click = HTMLElement.prototype.click;
  pin(HTMLElement.prototype, "click", function () { if (!this.isConnected) guardClick({ target: this, button: 0 }); return click.call(this); });
  const dispatch = EventTarget.prototype.dispatchEvent;
  pin(EventTarget.prototype, "dispatchEvent", function (event) {
    if (event && /^(aux)?click$/.test(event.type) && this instanceof Node && !this.isConnected) guardClick({ target: this, button: event.button, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey });
    return dispatch.call(this, event);
  });
  const formTarget = (form, submitter) => (submitter && submitter.hasAttribute("formtarget") ? submitter.getAttribute("formtarget") : targetOf(form));
  addEventListener("submit", (e) => { if (newWindow(formTarget(e.target, e.submitter))) e.preventDefault(); }, true);
  const submit = HTMLFormElement.prototype.submit;
  pin(HTMLFormElement.prototype, "submit", function () { if (!newWindow(targetOf(this))) submit.call(this); });
})()`;
