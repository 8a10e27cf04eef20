// PDF dates ("D:20070113191400+01'00'", PDF 32000-1 7.9.4) and XMP dates
// (ISO 8601) to the answer's form, ISO-8601 without a zone
// (docs/reference/pdf-toolkit.md, PDF metadata). The wall-clock time is kept
// as the document records it; the offset is dropped, not applied.

const PDF_DATE = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/;
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?)?)?/;

function build(parts: (string | undefined)[]): string | null {
  const [y, mo = "01", d = "01", h = "00", mi = "00", s = "00"] = parts;
  if (!y) return null;
  const n = [mo, d, h, mi, s].map(Number);
  if (n[0] < 1 || n[0] > 12 || n[1] < 1 || n[1] > 31 || n[2] > 23 || n[3] > 59 || n[4] > 60) return null;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

export function pdfDateToIso(value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d{4}-/.test(v)) return isoDateToIso(v); // some writers put XMP-style dates in the Info dictionary
  const m = PDF_DATE.exec(v);
  return m ? build(m.slice(1)) : null;
}

export function isoDateToIso(value: string | null | undefined): string | null {
  const m = value ? ISO_DATE.exec(value.trim()) : null;
  return m ? build(m.slice(1)) : null;
}
