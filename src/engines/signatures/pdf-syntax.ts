// PDF text strings and dates as the signature dictionary and its widget
// write them (ISO 32000-2, 7.9.2 and 7.9.4).

const PRINTABLE = /^[\x20-\x7e]*$/;

/** A text string: a literal for printable ASCII, else UTF-16BE with its byte order mark (hex, so the object stays ASCII). */
export function pdfText(s: string): string {
  if (PRINTABLE.test(s)) return `(${s.replace(/([\\()])/g, "\\$1")})`;
  let hex = "FEFF";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, "0");
  return `<${hex}>`;
}

const two = (n: number) => String(n).padStart(2, "0");

/** D:YYYYMMDDHHmmSSZ, in UTC. */
export function pdfDate(d: Date): string {
  return `D:${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
}

/** A PDF date as ISO 8601 UTC, or null when it is not one (readers write many near-misses; only the prefix up to the seconds is required). */
export function parsePdfDate(s: string | null): string | null {
  if (!s) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz])|([+-])(\d{2})'?(\d{2})?'?)?/.exec(s.trim());
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", se = "00", , sign, oh = "00", om = "00"] = m;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +se);
  const offset = sign ? (sign === "+" ? 1 : -1) * (+oh * 60 + +om) * 60_000 : 0;
  const t = utc - offset;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
