import type { Span } from "./types";

// Spans of several lines joined into one run of text: a hyphen that breaks a
// word at a line end is removed, other line breaks become a space.

const HYPHEN_END = /(\p{L})[-\u00ad]$/u;

export function joinLines(lines: Span[][]): Span[] {
  const out: Span[] = [];
  for (const line of lines) {
    const spans = line.map((s) => ({ ...s }));
    const last = out[out.length - 1];
    const first = spans[0];
    if (last && first) {
      const prev = last.text.trimEnd();
      if (HYPHEN_END.test(prev) && /^\p{Ll}/u.test(first.text.trimStart())) {
        last.text = prev.slice(0, -1);
        first.text = first.text.trimStart();
      } else if (!/\s$/.test(last.text) && !/^\s/.test(first.text)) {
        last.text += " ";
      }
    }
    out.push(...spans);
  }
  return out;
}

export const plainText = (spans: Span[]) =>
  spans
    .map((s) => s.text)
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/** Bullet glyphs and numbering that open a list item, with the rest of the text. */
// Typographic bullets may touch their text; ASCII ones need a space after them ("-5" is a number).
const BULLET = /^\s*(?:([•◦▪▫●○■□‣⁃∙➢►▶✓✔])\s*|([·\-–—*])\s+)(?=\S)/u;
const NUMBERED = /^\s*(\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)])\s+/;

export interface Marker {
  ordered: boolean;
  marker: string;
}

export function listMarker(text: string): Marker | null {
  const bullet = BULLET.exec(text);
  if (bullet) return { ordered: false, marker: bullet[1] ?? bullet[2] };
  const numbered = NUMBERED.exec(text);
  // "1." opens an item; "2023." or "e.g." do not (short markers only).
  if (numbered) return { ordered: true, marker: numbered[1] };
  return null;
}

/** Removes `length` leading characters (the marker and its space) from spans. */
export function dropPrefix(spans: Span[], text: string): Span[] {
  const m = BULLET.exec(text) ?? NUMBERED.exec(text);
  let length = m ? m[0].length : 0;
  const out: Span[] = [];
  for (const s of spans) {
    if (length >= s.text.length) {
      length -= s.text.length;
      continue;
    }
    out.push({ ...s, text: s.text.slice(length) });
    length = 0;
  }
  return out;
}
