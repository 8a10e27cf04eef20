// Scripts that run inside the page, kept as source text: the Worker's
// TypeScript has no DOM library, and page.evaluate takes an expression as it
// is. Each is an expression whose value (or promise) comes back as JSON.

/** Web fonts have loaded (one_long_page measures after this). */
export const FONTS_READY = "document.fonts.ready.then(() => true)";

/** The laid-out document's width and full height in CSS px. */
export const CONTENT_SIZE = `document.fonts.ready.then(() => {
  const root = document.documentElement;
  return { width: root.clientWidth, height: Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0) };
})`;

/** The document's headings in order, for bookmarks: level 1-6 and their visible text. */
export const HEADINGS = `Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6"))
  .map((h) => ({ level: Number(h.tagName[1]), text: (h.innerText || "").replace(/\\s+/g, " ").trim() }))
  .filter((h) => h.text !== "")`;

export const SCROLL_HEIGHT = "document.documentElement.scrollHeight";

/** Whether a readable style sheet sets @page { size: ... } (cross-origin sheets cannot be read and are skipped). */
export const HAS_CSS_PAGE_SIZE = `(() => {
  const visit = (rules) => {
    for (const rule of rules) {
      if (rule instanceof CSSPageRule && rule.style.getPropertyValue("size").trim() !== "") return true;
      if (rule.cssRules && visit(rule.cssRules)) return true;
    }
    return false;
  };
  for (const sheet of document.styleSheets) {
    try { if (visit(sheet.cssRules)) return true; } catch {}
  }
  return false;
})()`;

// remove_popups (docs/tools/html-to-pdf.md: best effort). (1) Elements matching common
// consent-manager and modal selectors are removed. (2) Any element positioned
// fixed or sticky with a z-index of 100 or more that covers a quarter of the
// viewport, or spans half its width at its top or bottom edge (a banner), is
// removed; a fixed site header of low z-index stays. (3) The scroll lock such
// overlays put on html and body is lifted so the whole page prints.
const POPUP_SELECTORS = [
  "#onetrust-consent-sdk",
  "#onetrust-banner-sdk",
  "#CybotCookiebotDialog",
  "#cookie-law-info-bar",
  "#cookiescript_injected",
  "#usercentrics-root",
  "#didomi-host",
  "#qc-cmp2-container",
  ".cc-window",
  ".cookie-banner",
  ".cookie-consent",
  ".cookie-notice",
  ".gdpr-banner",
  "[id*='cookie-banner' i]",
  "[class*='cookie-banner' i]",
  "[aria-modal='true']",
  ".modal-backdrop",
  ".newsletter-popup",
];

export const REMOVE_POPUPS = `(() => {
  let removed = 0;
  for (const el of document.querySelectorAll(${JSON.stringify(POPUP_SELECTORS.join(","))})) { el.remove(); removed++; }
  const vw = window.innerWidth, vh = window.innerHeight;
  for (const el of document.querySelectorAll("body *")) {
    if (!el.isConnected) continue;
    const style = getComputedStyle(el);
    if (style.position !== "fixed" && style.position !== "sticky") continue;
    if (!(parseInt(style.zIndex, 10) >= 100)) continue;
    const r = el.getBoundingClientRect();
    const covers = (Math.min(r.width, vw) * Math.min(r.height, vh)) / (vw * vh) >= 0.25;
    const banner = r.width >= vw * 0.5 && (r.top <= 1 || r.bottom >= vh - 1);
    if (covers || banner) { el.remove(); removed++; }
  }
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    el.style.setProperty("overflow", "visible", "important");
    if (getComputedStyle(el).position === "fixed") el.style.setProperty("position", "static", "important");
  }
  return removed;
})()`;
