// The layout families of the generated corpus. Each builds one document from
// a seeded PRNG: the layout's shape is fixed by the family, everything else
// (text, column counts, sizes, margins, numbering, furniture) is drawn, so
// no two documents agree in their coordinates and nothing can be tuned to one.
import { Doc } from "./doc.mjs";
import { running } from "./furniture.mjs";
import { capWord, paragraph, rtlParagraph, rtlTitle, sentence, title, word } from "./text.mjs";

/** Section headings numbered "2" / "2.1" in about half the documents. */
function numbering(r) {
  const on = r.chance(0.5);
  const at = [0, 0];
  return (level) => {
    if (!on) return "";
    if (level === 2) {
      at[0]++;
      at[1] = 0;
      return `${at[0]} `;
    }
    at[1]++;
    return `${at[0]}.${at[1]} `;
  };
}

function sections(d, r, count, { paras = [2, 4], sub = 0.3 } = {}) {
  const num = numbering(r);
  for (let s = 0; s < count; s++) {
    d.heading(2, `${num(2)}${title(r)}`);
    for (let p = r.int(...paras); p > 0; p--) d.para(paragraph(r));
    if (r.chance(sub)) {
      d.heading(3, `${num(3)}${title(r)}`);
      for (let p = r.int(1, 3); p > 0; p--) d.para(paragraph(r));
    }
  }
}

function frontMatter(d, r) {
  d.heading(1, title(r, 4, 9));
  d.para(Array.from({ length: r.int(2, 4) }, () => `${capWord(r)} ${capWord(r)}`).join(", "), { attrs: ' class="authors"' });
  // Half the abstracts are set bold throughout: a bold paragraph, not a run of headings.
  const bold = r.chance(0.5);
  d.raw('<div class="abstract">');
  d.para(paragraph(r, 4, 7), { lead: "Abstract.", bold });
  d.raw("</div>");
}

function article(r, name) {
  const d = new Doc(r, "article", name);
  const cols = r.int(2, 3);
  d.css.push(
    `.cols { column-count: ${cols}; column-gap: ${r.int(6, 12)}mm; } .abstract { margin: 0 ${r.int(0, 15)}mm 10pt; } .authors { font-style: italic; }`,
  );
  if (r.chance(0.7)) running(d, r);
  frontMatter(d, r);
  d.raw('<div class="cols">');
  sections(d, r, r.int(4, 7), { paras: [2, 4] });
  d.raw("</div>");
  return d;
}

/**
 * A picture set across the page between two column regions, whose column
 * counts differ. They must: the second figure's regions follow the first's
 * with nothing between them, and two regions of one column count stacked
 * so read as one (where each ends is Chromium's column balancing, not
 * anything on the page), while the HTML reads them one after the other.
 */
function figure(r, name) {
  const d = new Doc(r, "figure", name);
  const a = r.int(2, 3);
  const b = [1, 2, 3].filter((n) => n !== a)[r.int(0, 1)];
  d.css.push(`.c${a} { column-count: ${a}; column-gap: 8mm; } .c${b} { column-count: ${b}; column-gap: 8mm; } figure { margin: 10pt 0; }`);
  if (r.chance(0.5)) running(d, r);
  d.heading(1, title(r, 3, 7));
  for (let f = r.int(1, 2); f > 0; f--) {
    d.raw(`<div class="c${a}">`);
    sections(d, r, r.int(1, 3), { sub: 0 });
    d.raw("</div>");
    const count = r.int(4, 9);
    const bars = Array.from({ length: count }, (_, i) => {
      const h = r.int(20, 120);
      return `<rect x="${10 + (i * 480) / count}" y="${140 - h}" width="${300 / count}" height="${h}" fill="#${r.pick(["4a7ab8", "b8574a", "6a9a3a"])}"/>`;
    });
    d.raw(`<figure><svg width="100%" height="${r.int(110, 190)}" viewBox="0 0 500 150" preserveAspectRatio="none">${bars.join("")}</svg>`);
    const caption = `Figure ${4 - f}. ${sentence(r, 8, 16)}`;
    d.truth.paragraphs.push({ text: caption, flow: "main" });
    d.raw(`<figcaption class="caption">${caption}</figcaption></figure>`);
    d.raw(`<div class="c${b}">`);
    sections(d, r, r.int(1, 3), { sub: 0 });
    d.raw("</div>");
  }
  return d;
}

/** A boxed sidebar beside the main text: its own flow, read whole before or after the main text. */
function sidebar(r, name) {
  const d = new Doc(r, "sidebar", name);
  const left = r.chance(0.4);
  const width = r.int(28, 38);
  d.css.push(
    `.wrap { display: grid; grid-template-columns: ${left ? `${width}% 1fr` : `1fr ${width}%`}; gap: ${r.int(6, 12)}mm; align-items: start; }
     aside { background: #eef2f7; border: 0.8pt solid #7a8ca8; padding: 6pt; font-size: 0.9em; }`,
  );
  if (r.chance(0.5)) running(d, r);
  d.heading(1, title(r, 3, 7));
  d.raw('<div class="wrap">');
  const main = () => {
    d.raw("<main>");
    sections(d, r, r.int(2, 4), { sub: 0.2 });
    d.raw("</main>");
  };
  const aside = () => {
    d.raw("<aside>");
    d.heading(3, title(r, 2, 4));
    for (let p = r.int(2, 3); p > 0; p--) d.para(paragraph(r, 1, 3), { flow: "aside" });
    d.raw("</aside>");
  };
  if (left) {
    aside();
    main();
  } else {
    main();
    aside();
  }
  d.raw("</div>");
  for (let p = r.int(1, 3); p > 0; p--) d.para(paragraph(r));
  return d;
}

/**
 * Pages laid out by hand (one box per sheet) so each page's footnotes sit at
 * its foot, under a short rule, with the page's own furniture around it.
 */
function footnotes(r, name) {
  const d = new Doc(r, "footnotes", name);
  d.pdf = { ...d.pdf, format: "A4", margin: { top: "0", bottom: "0", left: "0", right: "0" } };
  const pad = r.int(18, 26);
  d.css.push(
    `.sheet { position: relative; height: 296mm; box-sizing: border-box; padding: ${pad + 6}mm ${pad}mm; break-after: page; overflow: hidden; }
     .notes { position: absolute; left: ${pad}mm; right: ${pad}mm; bottom: ${pad}mm; font-size: 0.78em; border-top: 0.6pt solid #444; padding-top: 3pt; }
     .notes p { margin: 0 0 2pt; } .run { position: absolute; left: ${pad}mm; right: ${pad}mm; font-size: 8pt; display: flex; justify-content: space-between; }
     .top { top: ${pad - 8}mm; } .bottom { bottom: ${pad - 12}mm; } sup { font-size: 0.7em; }`,
  );
  const head = `${title(r, 2, 4)} · ${capWord(r)} ${r.int(2000, 2026)}`;
  d.furniture(head);
  const pages = r.int(2, 4);
  let mark = 0;
  const num = numbering(r);
  for (let p = 1; p <= pages; p++) {
    d.raw(`<div class="sheet"><div class="run top"><span>${head}</span></div>`);
    if (p === 1) d.heading(1, title(r, 3, 6));
    d.heading(2, `${num(2)}${title(r)}`);
    const notes = [];
    for (let k = r.int(3, 4); k > 0; k--) {
      const sentences = Array.from({ length: r.int(2, 4) }, () => sentence(r));
      const text = r.chance(0.7) ? sentences.map((s, i) => (i === 0 ? `${s}${++mark}` : s)).join(" ") : sentences.join(" ");
      if (/\.\d+ /.test(text) || /\.\d+$/.test(text)) notes.push(mark);
      d.truth.paragraphs.push({ text, flow: "main" });
      d.raw(`<p>${text.replace(/\.(\d+)( |$)/, ".<sup>$1</sup>$2")}</p>`);
    }
    d.raw('<div class="notes">');
    for (const n of notes) {
      const text = `${n} ${sentence(r, 6, 16)}`;
      d.truth.paragraphs.push({ text, flow: "notes" });
      d.raw(`<p><sup>${n}</sup> ${text.slice(String(n).length + 1)}</p>`);
    }
    d.raw(`</div><div class="run bottom"><span></span><span>${p}</span></div></div>`);
    d.furniture(String(p), "number");
  }
  return d;
}

/** A long single-column report: repetition across many pages is what marks its furniture. */
function report(r, name) {
  const d = new Doc(r, "report", name);
  running(d, r);
  d.heading(1, title(r, 3, 7));
  const num = numbering(r);
  for (let s = r.int(4, 6); s > 0; s--) {
    d.heading(2, `${num(2)}${title(r)}`);
    for (let p = r.int(2, 4); p > 0; p--) {
      const kind = r.next();
      if (kind < 0.12) d.para(paragraph(r, 2, 3), { bold: true });
      else if (kind < 0.25) d.para(paragraph(r, 1, 3), { lead: `${capWord(r)}.` });
      else d.para(paragraph(r));
    }
    if (r.chance(0.5)) {
      d.heading(3, `${num(3)}${title(r)}`);
      for (let p = r.int(1, 3); p > 0; p--) d.para(paragraph(r));
    }
  }
  return d;
}

function tableRows(r) {
  const cols = r.int(3, 6);
  const header = [capWord(r), ...Array.from({ length: cols - 1 }, () => (r.chance(0.5) ? capWord(r) : `${capWord(r)} ${r.int(2000, 2026)}`))];
  const money = r.chance(0.5);
  const rows = Array.from({ length: r.int(4, 10) }, () => [
    r.chance(0.5) ? `${capWord(r)} ${word(r)}` : capWord(r),
    ...Array.from({ length: cols - 1 }, (_, i) =>
      i === 0 && r.chance(0.3) ? capWord(r) : money ? r.int(100, 99999).toLocaleString("en-US") : `${r.float(0, 100).toFixed(r.int(1, 2))}`,
    ),
  ]);
  return [header, ...rows];
}

function tables(ruled) {
  return (r, name) => {
    const d = new Doc(r, ruled ? "ruled-table" : "unruled-table", name);
    if (!ruled && r.chance(0.4)) d.css.push("table.unruled thead th { border-bottom: 0.6pt solid #333; }");
    if (r.chance(0.5)) running(d, r);
    d.heading(1, title(r, 3, 6));
    let n = 0;
    for (let s = r.int(2, 4); s > 0; s--) {
      d.heading(2, title(r));
      for (let p = r.int(1, 2); p > 0; p--) d.para(paragraph(r));
      d.table(tableRows(r), { ruled, caption: r.chance(0.7) ? `Table ${++n}. ${sentence(r, 6, 12)}` : undefined });
      d.para(paragraph(r, 1, 3));
    }
    return d;
  };
}

function rtl(r, name) {
  const d = new Doc(r, "rtl", name);
  const lang = r.chance(0.5) ? "ar" : "he";
  d.lang = lang;
  d.css.push('body { font-family: "DejaVu Sans"; } p { text-align: right; }');
  if (r.chance(0.4)) running(d, r);
  d.heading(1, rtlTitle(r, lang, 3, 6));
  for (let s = r.int(3, 5); s > 0; s--) {
    d.heading(2, rtlTitle(r, lang));
    for (let p = r.int(2, 4); p > 0; p--) d.para(rtlParagraph(r, lang));
  }
  return d;
}

function lists(r, name) {
  const d = new Doc(r, "lists", name);
  if (r.chance(0.5)) running(d, r);
  d.heading(1, title(r, 3, 6));
  const item = () => ({ text: sentence(r, 6, 18).replace(/\.$/, r.chance(0.5) ? "." : "") });
  for (let s = r.int(3, 5); s > 0; s--) {
    d.heading(2, title(r));
    d.para(paragraph(r, 1, 3));
    const items = Array.from({ length: r.int(3, 6) }, () => ({ ...item(), children: r.chance(0.2) ? Array.from({ length: r.int(2, 3) }, item) : [] }));
    d.list(r.chance(0.5), items);
    d.para(paragraph(r, 1, 3));
  }
  return d;
}

function codeLines(r) {
  const fn = `${word(r)}${capWord(r)}`;
  const lines = [`function ${fn}(${word(r)}, ${word(r)}) {`];
  for (let k = r.int(2, 7); k > 0; k--) {
    lines.push(
      r.chance(0.3) ? `  if (${word(r)} > ${r.int(1, 99)}) return ${word(r)};` : `  const ${word(r)}${r.int(1, 9)} = ${word(r)}.${word(r)}(${r.int(0, 500)});`,
    );
  }
  lines.push(`  return ${word(r)};`, "}");
  return lines;
}

function code(r, name) {
  const d = new Doc(r, "code", name);
  if (r.chance(0.5)) running(d, r);
  d.heading(1, title(r, 3, 6));
  for (let s = r.int(3, 5); s > 0; s--) {
    d.heading(2, title(r));
    d.para(paragraph(r, 1, 3));
    d.code(codeLines(r));
    d.para(paragraph(r, 1, 3));
  }
  return d;
}

/**
 * Manuscripts, briefs and patents number their lines in the margin: every
 * line or every fifth, left or right of the text, counted on through the
 * document. A script in the page (lineNumberScript) finds where each line
 * starts once Chromium has set it and puts the number there, in a
 * zero-width box kept with the line's first word, so it prints on that
 * line's baseline on whatever page the line falls. The numbers it draws
 * are furniture (generate.mjs reads them back).
 */
function lineNumbered(r, name) {
  const d = new Doc(r, "line-numbered", name);
  const format = r.pick(["A4", "Letter"]);
  const [left, right] = [r.int(24, 32), r.int(20, 30)];
  const side = r.chance(0.75) ? "left" : "right";
  const width = (format === "A4" ? 210 : 215.9) - left - right;
  const gap = r.int(7, 13);
  // Chromium clips what is drawn in the page margins: the margins are narrow and the text is set in from them.
  d.pdf = { format, margin: { top: `${r.int(18, 26)}mm`, bottom: `${r.int(18, 26)}mm` } };
  if (r.chance(0.5)) running(d, r);
  d.pdf = { ...d.pdf, format, margin: { ...d.pdf.margin, left: "6mm", right: "6mm" } };
  d.lineNumbers = { every: r.chance(0.5) ? 1 : 5 };
  // A zero-width box before the line's first word (kept with it: no break between them) sits on the line's
  // baseline; its number overflows it, shifted out into the margin.
  const place = side === "left" ? `direction: rtl; left: -${gap}mm;` : `left: calc(${width.toFixed(1)}mm + ${gap}mm);`;
  d.css.push(
    `.lined { position: relative; width: ${width.toFixed(1)}mm; margin-left: ${left - 6}mm; } .keep { white-space: nowrap; }
     .ln { display: inline-block; width: 0; position: relative; ${place} font-size: ${r.float(8, 10).toFixed(1)}pt; font-weight: normal; font-style: normal; color: #444; }`,
  );
  d.raw('<div class="lined">');
  d.heading(1, title(r, 3, 7));
  sections(d, r, r.int(4, 7), { paras: [2, 4] });
  d.raw("</div>");
  return d;
}

/**
 * Runs in the page (page.evaluate) before it is printed: numbers the lines
 * of `.lined`, every `every`th one, and answers the numbers drawn. A line
 * starts where a word's box sits lower than the word before it; line
 * breaks depend on the text's width only, which `.lined` fixes, so they
 * are the printed page's.
 */
export function lineNumberScript({ every }) {
  const root = document.querySelector(".lined");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const starts = [];
  let lastTop = Number.NEGATIVE_INFINITY;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    for (const m of text.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (rect.top > lastTop + rect.height / 2) starts.push({ node, offset: m.index });
      lastTop = Math.max(lastTop, rect.top);
    }
  }
  const drawn = [];
  // From the end, so splitting a text node leaves the earlier offsets valid.
  for (let i = starts.length - 1; i >= 0; i--) {
    const n = i + 1;
    if (n % every) continue;
    const { node, offset } = starts[i];
    const at = offset ? node.splitText(offset) : node;
    const word = /^\S+/.exec(at.data)[0];
    if (at.data.length > word.length) at.splitText(word.length);
    const keep = document.createElement("span");
    keep.className = "keep";
    const num = document.createElement("span");
    num.className = "ln";
    num.textContent = String(n);
    at.parentNode.insertBefore(keep, at);
    keep.append(num, at);
    drawn.unshift(String(n));
  }
  return drawn;
}

export const FAMILIES = {
  article,
  figure,
  sidebar,
  footnotes,
  report,
  "ruled-table": tables(true),
  "unruled-table": tables(false),
  rtl,
  lists,
  code,
  "line-numbered": lineNumbered,
};
