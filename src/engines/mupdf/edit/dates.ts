// One date in the two spellings a PDF keeps it in: the Info dictionary's
// "D:YYYYMMDDHHmmSSOHH'mm" (ISO 32000-1 7.9.4) and XMP's ISO 8601 subset
// (ISO 16684-1 8.2.1.1.4). Both allow a date cut short after any part and
// a time without a zone (the zone is then unknown), so a date keeps exactly
// the precision and the zone it was given in: converting between the two
// never invents a zone or a time, which is what lets the pair agree.

export interface DateParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** Minutes east of UTC; absent when the zone is unknown. */
  offset?: number;
}

const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;
const PDF = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(?:(\d{2})'?)?)?$/i;

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The parts if every one is in range (a 30 February, hour 24 or offset ±15:00 is not a date). */
function checked(p: DateParts): DateParts | null {
  if (p.month !== undefined && (p.month < 1 || p.month > 12)) return null;
  if (p.day !== undefined && (p.day < 1 || p.day > daysIn(p.year, p.month ?? 1))) return null;
  if (p.hour !== undefined && p.hour > 23) return null;
  if (p.minute !== undefined && p.minute > 59) return null;
  if (p.second !== undefined && p.second > 59) return null;
  if (p.offset !== undefined && Math.abs(p.offset) > 14 * 60) return null;
  return p;
}

function zoneMinutes(zone: string): number {
  if (/^z$/i.test(zone)) return 0;
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits[0] === "-" ? -minutes : minutes;
}

/** An ISO 8601 date as callers and XMP write it: "2024-05-01", "2024-05-01T10:20:30+02:00", "...Z"; null when it is not one. */
export function parseIsoDate(value: string): DateParts | null {
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, zone] = m;
  return checked({ year: Number(y), month: num(mo), day: num(d), hour: num(h), minute: num(mi), second: num(s), offset: zone ? zoneMinutes(zone) : undefined });
}

/** A PDF date string; some writers put ISO dates in the Info dictionary, read as such. */
export function parsePdfDate(value: string): DateParts | null {
  const v = value.trim();
  if (/^\d{4}-/.test(v)) return parseIsoDate(v);
  const m = PDF.exec(v);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, z, sign, oh, om] = m;
  let offset: number | undefined;
  if (z) offset = 0;
  else if (sign) offset = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om ?? "0"));
  return checked({ year: Number(y), month: num(mo), day: num(d), hour: num(h), minute: num(mi), second: num(s), offset });
}

/** The instant `at` in UTC, to the second. */
export function utcParts(at: Date): DateParts {
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    second: at.getUTCSeconds(),
    offset: 0,
  };
}

const two = (n: number) => String(n).padStart(2, "0");
const hasTime = (p: DateParts) => p.day !== undefined && p.hour !== undefined && p.minute !== undefined;

export function formatPdfDate(p: DateParts): string {
  let s = `D:${String(p.year).padStart(4, "0")}`;
  for (const part of [p.month, p.day, p.hour, p.minute, p.second]) {
    if (part === undefined) return s;
    s += two(part);
  }
  if (p.offset === undefined) return s;
  if (p.offset === 0) return `${s}Z`;
  const abs = Math.abs(p.offset);
  return `${s}${p.offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}'${two(abs % 60)}`;
}

/** XMP's spelling; a zone is written only with a time, as ISO 16684-1 allows it. */
export function formatIsoDate(p: DateParts): string {
  let s = String(p.year).padStart(4, "0");
  if (p.month === undefined) return s;
  s += `-${two(p.month)}`;
  if (p.day === undefined) return s;
  s += `-${two(p.day)}`;
  if (!hasTime(p)) return s;
  s += `T${two(p.hour as number)}:${two(p.minute as number)}`;
  if (p.second !== undefined) s += `:${two(p.second)}`;
  if (p.offset === undefined) return s;
  if (p.offset === 0) return `${s}Z`;
  const abs = Math.abs(p.offset);
  return `${s}${p.offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
