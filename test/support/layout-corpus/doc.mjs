// One generated document: HTML written element by element while the same
// calls record the truth (what a reader gets from the HTML), so the two can
// never disagree. Flows name text that is read as one sequence: the main
// text, a sidebar, the footnotes; reading order is judged within a flow.
import { escapeHtml as esc } from "./text.mjs";

export class Doc {
  constructor(r, family, name) {
    this.r = r;
    this.family = family;
    this.name = name;
    this.html = [];
    this.css = [];
    this.truth = { family, name, paragraphs: [], headings: [], tables: [], code: [], furniture: [], decoys: [] };
    this.pdf = { format: r.pick(["A4", "Letter"]), margin: { top: "18mm", bottom: "18mm", left: "18mm", right: "18mm" } };
  }

  raw(html) {
    this.html.push(html);
    return this;
  }

  heading(level, text, attrs = "") {
    this.truth.headings.push({ text, level });
    return this.raw(`<h${level}${attrs}>${esc(text)}</h${level}>`);
  }

  /** A paragraph; `bold` sets all of it bold (a bold paragraph is still a paragraph, never a heading). */
  para(text, { flow = "main", bold = false, lead = "", attrs = "" } = {}) {
    const full = lead ? `${lead} ${text}` : text;
    this.truth.paragraphs.push({ text: full, flow });
    if (bold) this.truth.decoys.push(full);
    const body = lead ? `<b>${esc(lead)}</b> ${esc(text)}` : esc(text);
    return this.raw(`<p${attrs}>${bold ? `<b>${body}</b>` : body}</p>`);
  }

  /** A list; items are paragraphs of the main flow, in document order, nested ones after their parent. */
  list(ordered, items) {
    const tag = ordered ? "ol" : "ul";
    const render = (its) =>
      `<${tag}>${its
        .map((it) => {
          this.truth.paragraphs.push({ text: it.text, flow: "main" });
          return `<li>${esc(it.text)}${it.children?.length ? render(it.children) : ""}</li>`;
        })
        .join("")}</${tag}>`;
    return this.raw(render(items));
  }

  /**
   * A table: the first row is the header. `ruled` draws every cell border.
   * Tables are kept on one page (CSS): Chromium repeats a split table's
   * header on the next page, text the truth would not hold once.
   */
  table(rows, { ruled, caption, cls = "" }) {
    this.truth.tables.push({ rows, ruled });
    const [head, ...body] = rows;
    const tr = (cells, tag) => `<tr>${cells.map((c, i) => `<${tag}${i > 0 && /^[\d.,%$+-]+$/.test(c) ? ' class="n"' : ""}>${esc(c)}</${tag}>`).join("")}</tr>`;
    if (caption) this.truth.paragraphs.push({ text: caption, flow: "main" });
    return this.raw(
      `${caption ? `<p class="caption">${esc(caption)}</p>` : ""}<table class="${ruled ? "ruled" : "unruled"} ${cls}"><thead>${tr(head, "th")}</thead><tbody>${body.map((b) => tr(b, "td")).join("")}</tbody></table>`,
    );
  }

  code(lines) {
    this.truth.code.push(lines);
    return this.raw(`<pre><code>${lines.map(esc).join("\n")}</code></pre>`);
  }

  /** Text that repeats on pages and must not reach the Markdown. */
  furniture(text, kind = "phrase") {
    this.truth.furniture.push({ text, kind });
  }

  page() {
    const body = this.r.float(9.5, 12).toFixed(1);
    const font = this.r.pick(["DejaVu Serif", "DejaVu Sans", "Nimbus Roman", "Nimbus Sans", "C059", "P052"]);
    const base = `
      body { font-family: "${font}"; font-size: ${body}pt; line-height: ${this.r.float(1.25, 1.5).toFixed(2)}; margin: 0; color: #111; }
      h1 { font-size: ${(body * this.r.float(1.8, 2.4)).toFixed(1)}pt; margin: 0 0 8pt; }
      h2 { font-size: ${(body * this.r.float(1.3, 1.6)).toFixed(1)}pt; margin: 12pt 0 5pt; }
      h1, h2, h3 { break-after: avoid; break-inside: avoid; }
      h3 { font-size: ${(body * this.r.float(1.0, 1.2)).toFixed(1)}pt; margin: 10pt 0 4pt; }
      p { margin: 0 0 ${this.r.float(4, 9).toFixed(1)}pt; text-align: ${this.r.pick(["left", "justify"])}; }
      pre { font-family: "DejaVu Sans Mono"; font-size: ${(body * 0.85).toFixed(1)}pt; background: #f3f3f3; padding: 6pt; line-height: 1.3; }
      table { border-collapse: collapse; margin: 8pt 0 10pt; break-inside: avoid; }
      td, th { padding: 2pt 8pt; text-align: left; }
      td.n, th.n { text-align: right; }
      table.ruled td, table.ruled th { border: 0.6pt solid #333; }
      table.unruled td, table.unruled th { padding: 1.5pt ${this.r.int(10, 18)}pt 1.5pt 0; }
      .caption { font-size: 0.9em; font-style: italic; }
      ul, ol { margin: 4pt 0 8pt; }
      li { margin-bottom: 2pt; }`;
    return `<!doctype html><html${this.lang ? ` lang="${this.lang}" dir="rtl"` : ""}><head><meta charset="utf-8"><style>${base}${this.css.join("\n")}</style></head><body>${this.html.join("\n")}</body></html>`;
  }
}
