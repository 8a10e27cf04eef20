// Cell text to a typed spreadsheet value with a number format that keeps the
// source's display: "1,234.50" stays "1,234.50" in Excel, but sums.

export type CellValue = { kind: "text"; text: string } | { kind: "number"; value: number; format: string };

const text = (t: string): CellValue => ({ kind: "text", text: t });

/** Number format for `decimals` places, with or without thousands grouping. */
const numberFormat = (grouped: boolean, decimals: number) => `${grouped ? "#,##0" : "0"}${decimals ? `.${"0".repeat(decimals)}` : ""}`;

const NUMBER = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;
const CURRENCY: Record<string, string> = { $: '"$"', "€": '"€"', "£": '"£"', "¥": '"¥"' };

function plainNumber(s: string): { value: number; grouped: boolean; decimals: number } | null {
  const m = NUMBER.exec(s);
  if (!m) return null;
  // Leading zeros mark an identifier (a ZIP code, an account number), not a quantity.
  if (/^0\d/.test(m[1])) return null;
  return { value: Number(`${m[1].replace(/,/g, "")}${m[2] ? `.${m[2]}` : ""}`), grouped: m[1].includes(","), decimals: m[2]?.length ?? 0 };
}

export function cellValue(raw: string): CellValue {
  const s = raw.trim().replace(/\u2212/g, "-");
  if (!s) return text("");
  const date = dateValue(s);
  if (date) return date;
  let body = s;
  let negative = false;
  let parens = false;
  if (/^\(.+\)$/.test(body)) {
    parens = true;
    negative = true;
    body = body.slice(1, -1).trim();
  } else if (/^[-+]/.test(body)) {
    negative = body[0] === "-";
    body = body.slice(1).trim();
  }
  let currency = "";
  const symbol = /^([$€£¥])\s?/.exec(body);
  if (symbol) {
    currency = CURRENCY[symbol[1]];
    body = body.slice(symbol[0].length);
  }
  const percent = body.endsWith("%");
  if (percent) body = body.slice(0, -1).trim();
  const n = plainNumber(body);
  if (!n) return text(s);
  const base = `${currency}${numberFormat(n.grouped, n.decimals)}${percent ? "%" : ""}`;
  const value = (negative ? -n.value : n.value) / (percent ? 100 : 1);
  // Keep the source's way of writing negatives: parentheses or a minus sign.
  const format = parens ? `${base};(${base})` : base === "0" ? "0" : base;
  return { kind: "number", value, format };
}

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

function serial(y: number, m: number, d: number): number | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 9999) return null;
  const t = Date.UTC(y, m - 1, d);
  if (new Date(t).getUTCDate() !== d) return null;
  return (t - EXCEL_EPOCH) / 86_400_000;
}

/** ISO dates, and d/m/y or m/d/y with the day first when the first part cannot be a month. */
function dateValue(s: string): CellValue | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const v = serial(+m[1], +m[2], +m[3]);
    return v === null ? null : { kind: "number", value: v, format: "yyyy-mm-dd" };
  }
  m = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})$/.exec(s);
  if (!m) return null;
  const [a, sep, b, y] = [+m[1], m[2], +m[3], +m[4]];
  const dayFirst = a > 12 || sep === ".";
  const v = dayFirst ? serial(y, b, a) : serial(y, a, b);
  const part = (digits: string, unit: string) => unit.repeat(digits.length);
  const [first, second] = dayFirst ? ["d", "m"] : ["m", "d"];
  const fmt = `${part(m[1], first)}${sep}${part(m[3], second)}${sep}yyyy`;
  return v === null ? null : { kind: "number", value: v, format: fmt };
}
