// Paper sizes and margin presets of HTML to PDF (docs/tools/html-to-pdf.md: page_format, margin),
// in CSS units Chromium takes as they are. Pure tables, one place.

export const PAGE_FORMATS = {
  A0: { width: "841mm", height: "1189mm" },
  A1: { width: "594mm", height: "841mm" },
  A2: { width: "420mm", height: "594mm" },
  A3: { width: "297mm", height: "420mm" },
  A4: { width: "210mm", height: "297mm" },
  A5: { width: "148mm", height: "210mm" },
  A6: { width: "105mm", height: "148mm" },
  Letter: { width: "8.5in", height: "11in" },
  Legal: { width: "8.5in", height: "14in" },
  Tabloid: { width: "11in", height: "17in" },
  Ledger: { width: "17in", height: "11in" },
} as const;

export type PageFormat = keyof typeof PAGE_FORMATS;
export const PAGE_FORMAT_NAMES = Object.keys(PAGE_FORMATS) as PageFormat[];

/** The canonical name of a format given in any letter case ("a4", "LETTER"), or null. */
export function pageFormatNamed(name: string): PageFormat | null {
  const wanted = name.trim().toLowerCase();
  return PAGE_FORMAT_NAMES.find((f) => f.toLowerCase() === wanted) ?? null;
}

export const MARGIN_PRESETS = { none: "0mm", small: "10mm", default: "20mm", large: "30mm" } as const;
export type MarginPreset = keyof typeof MARGIN_PRESETS;

/** A running header or footer needs room in its margin, or Chromium prints it clipped. */
export const HEADER_FOOTER_MIN_MARGIN = "15mm";

const MM_PER_UNIT = { mm: 1, in: 25.4 } as const;

export function toMillimetres(length: string): number {
  const m = /^([\d.]+)(mm|in)$/.exec(length);
  if (!m) throw new Error(`unsupported length ${length}`);
  return Number(m[1]) * MM_PER_UNIT[m[2] as keyof typeof MM_PER_UNIT];
}

export function atLeast(length: string, min: string): string {
  return toMillimetres(length) >= toMillimetres(min) ? length : min;
}
