// DOM building for the console. Every string a user or the API supplied goes
// in as a text node or an attribute value, never as markup: the page has no
// innerHTML at all, so a key named `<img src=x onerror=alert(1)>` shows as
// those characters.

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
type Child = Node | string | number | null | undefined | false;

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (k === "text") el.textContent = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === "number" ? String(c) : c);
}

/** An HTML element: h("button", { type: "button", onclick: go }, "Save"). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  fill(el, attrs, children);
  return el;
}

/** An SVG element (the usage chart). */
export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  fill(el, attrs, children);
  return el as SVGElement;
}

/** Replaces a node's content. */
export function put(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  fill(el, {}, children);
}

let uid = 0;
/** A unique id for label/aria wiring. */
export const nextId = (prefix: string): string => `${prefix}-${++uid}`;

/** A labelled control: <div class="field"><label for=id>Label</label> control <small>hint</small></div>. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLDivElement {
  const id = control.id || nextId("f");
  control.id = id;
  const wrap = h("div", { class: "field" }, h("label", { for: id }, label), control);
  if (hint) {
    const hintId = `${id}-hint`;
    control.setAttribute("aria-describedby", hintId);
    wrap.append(h("small", { id: hintId, class: "hint" }, hint));
  }
  return wrap;
}

/** A table from a header row and rows of cells; the caption names it for assistive technology. */
export function table(caption: string, head: string[], rows: Child[][]): HTMLTableElement {
  return h(
    "table",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, c))))),
  );
}

/** A polite status line that screen readers announce. */
export function status(): HTMLParagraphElement {
  return h("p", { role: "status", class: "status" });
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "never";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace("T", " ").slice(0, 16);
}
