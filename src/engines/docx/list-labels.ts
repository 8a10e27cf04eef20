import { ROMAN_MAX, toRoman } from "../numbering/format";

// Word prints a numbered paragraph's label from numbering.xml ("1.",
// "1.1.", "a)", "iv."), counting per list and level. HTML readers
// (mammoth included) only say "ordered list", so a browser would print its
// own "1." at every level. This writes each numbered paragraph's own label
// into its text, after LABEL_MARK, so the printed label is Word's; the HTML
// step then hides the browser's marker on those items. Bullets are left to
// the HTML list.

/** Private-use character before an inserted label: the HTML step finds labelled items by it. */
export const LABEL_MARK = "\uE000";

interface Level {
  start: number;
  format: string;
  text: string;
}

const attr = (xml: string, re: RegExp): string | undefined => re.exec(xml)?.[1];

function readLevels(numberingXml: string): Map<string, Map<number, Level>> {
  const abstracts = new Map<string, Map<number, Level>>();
  for (const a of numberingXml.match(/<w:abstractNum\b[\s\S]*?<\/w:abstractNum>/g) ?? []) {
    const id = attr(a, /w:abstractNumId="(\d+)"/);
    if (id === undefined) continue;
    const levels = new Map<number, Level>();
    for (const l of a.match(/<w:lvl\b[\s\S]*?<\/w:lvl>/g) ?? []) {
      levels.set(Number(attr(l, /w:ilvl="(\d+)"/) ?? 0), {
        start: Number(attr(l, /<w:start w:val="(-?\d+)"/) ?? 1),
        format: attr(l, /<w:numFmt w:val="([^"]+)"/) ?? "decimal",
        text: attr(l, /<w:lvlText w:val="([^"]*)"/) ?? "",
      });
    }
    abstracts.set(id, levels);
  }
  const nums = new Map<string, Map<number, Level>>();
  for (const n of numberingXml.match(/<w:num\b[\s\S]*?<\/w:num>/g) ?? []) {
    const id = attr(n, /w:numId="(\d+)"/);
    const levels = abstracts.get(attr(n, /<w:abstractNumId w:val="(\d+)"/) ?? "");
    if (id !== undefined && levels) nums.set(id, levels);
  }
  return nums;
}

/** Word's Roman counters, as page numbers write them; past what Roman numerals can say, decimal. */
const roman = (n: number): string => (n >= 1 && n <= ROMAN_MAX ? toRoman(n) : String(n));

function letters(n: number): string {
  // Word repeats the letter past z: aa, bb, ...
  const c = String.fromCharCode(97 + ((n - 1) % 26));
  return c.repeat(Math.floor((n - 1) / 26) + 1);
}

/** A counter in a level's number format (the common ones; others print as decimal). */
export function formatNumber(n: number, format: string): string {
  switch (format) {
    case "lowerLetter":
      return letters(n);
    case "upperLetter":
      return letters(n).toUpperCase();
    case "lowerRoman":
      return roman(n);
    case "upperRoman":
      return roman(n).toUpperCase();
    case "decimalZero":
      return String(n).padStart(2, "0");
    default:
      return String(n);
  }
}

const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** document.xml with Word's label written at the start of every numbered (not bulleted) paragraph. */
export function labelNumberedParagraphs(documentXml: string, numberingXml: string): string {
  const nums = readLevels(numberingXml);
  const counters = new Map<string, number[]>();
  return documentXml.replace(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g, (p) => {
    const numPr = /<w:numPr>([\s\S]*?)<\/w:numPr>/.exec(p)?.[1];
    if (!numPr) return p;
    const numId = attr(numPr, /<w:numId w:val="(\d+)"/);
    const ilvl = Number(attr(numPr, /<w:ilvl w:val="(\d+)"/) ?? 0);
    const levels = numId === undefined ? undefined : nums.get(numId);
    const level = levels?.get(ilvl);
    if (!numId || !levels || !level || level.format === "bullet" || level.format === "none") return p;
    const count = counters.get(numId) ?? [];
    for (let l = 0; l <= ilvl; l++) count[l] ??= (levels.get(l)?.start ?? 1) - 1;
    count[ilvl]++;
    count.length = ilvl + 1;
    counters.set(numId, count);
    const label = level.text.replace(/%(\d)/g, (_, k: string) => {
      const at = Number(k) - 1;
      return formatNumber(count[at] ?? levels.get(at)?.start ?? 1, levels.get(at)?.format ?? "decimal");
    });
    const run = `<w:r><w:t xml:space="preserve">${LABEL_MARK}${escapeXml(label)} </w:t></w:r>`;
    const end = p.indexOf("</w:pPr>");
    return end < 0 ? p : p.slice(0, end + 8) + run + p.slice(end + 8);
  });
}
