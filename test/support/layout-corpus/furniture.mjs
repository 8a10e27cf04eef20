// Running headers and footers printed by Chromium in the page margins
// (headerTemplate / footerTemplate), recorded as furniture the Markdown must
// leave out. Page numbers are expanded per page once the page count is known
// (generate.mjs), from the `{n}` / `{m}` pattern kept here.
import { capWord, title } from "./text.mjs";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const NUMBERS = ["Page {n} of {m}", "{n}", "– {n} –", "{n} / {m}", "Page {n}"];

const span = (pattern) => pattern.replace("{n}", '<span class="pageNumber"></span>').replace("{m}", '<span class="totalPages"></span>');

/** Gives `doc` a running header and footer (each part chosen by `r`), and margins that hold them. */
export function running(doc, r) {
  const journal = `${r.pick(["Journal of", "Annals of", "Review of", "Bulletin of"])} ${title(r, 1, 3)}`;
  const volume = `Vol. ${r.int(1, 60)}, No. ${r.int(1, 12)} (${r.int(1990, 2026)})`;
  const downloaded = `Downloaded from https://${capWord(r).toLowerCase()}.example.org on ${r.int(1, 28)} ${r.pick(MONTHS)} ${r.int(2015, 2026)}`;
  const copyright = `© ${r.int(1995, 2026)} ${capWord(r)} Press. All rights reserved.`;
  const numbers = r.pick(NUMBERS);
  const size = r.float(7, 9).toFixed(1);
  const side = `font-size:${size}pt;width:100%;margin:0 18mm;display:flex;justify-content:space-between;font-family:'DejaVu Sans';color:#333`;
  const head = [];
  if (r.chance(0.8)) {
    head.push(`${journal} · ${volume}`);
    doc.furniture(`${journal} · ${volume}`);
  }
  const short = title(r, 2, 4);
  if (r.chance(0.6)) {
    head.push(short);
    doc.furniture(short);
  }
  const foot = [];
  if (r.chance(0.6)) {
    foot.push(downloaded);
    doc.furniture(downloaded);
  } else if (r.chance(0.5)) {
    foot.push(copyright);
    doc.furniture(copyright);
  }
  const numberTop = r.chance(0.25);
  (numberTop ? head : foot).push(span(numbers));
  doc.truth.pageNumbers = numbers;
  doc.pdf.displayHeaderFooter = true;
  doc.pdf.headerTemplate = `<div style="${side}">${head.map((h) => `<span>${h}</span>`).join("")}</div>`;
  doc.pdf.footerTemplate = `<div style="${side}">${foot.map((f) => `<span>${f}</span>`).join("")}</div>`;
  doc.pdf.margin = { top: `${r.int(20, 28)}mm`, bottom: `${r.int(20, 28)}mm`, left: `${r.int(16, 26)}mm`, right: `${r.int(16, 26)}mm` };
}

/** The page-number furniture of a printed document of `pages` pages. */
export function pageNumbers(pattern, pages) {
  return Array.from({ length: pages }, (_, i) => ({ text: pattern.replace("{n}", String(i + 1)).replace("{m}", String(pages)), kind: "number" }));
}
