// Pure: the page-list syntax callers write ("3,1,5-7,2", "odd", "-3--1",
// "2-"), read in two steps. Parsing checks the syntax alone, so a malformed
// list is refused before the document is opened; resolving checks the pages
// against the document's count. Split PDF's page_range bounds go through
// pageSpan too, so both tools agree on what a range is.

/** A page as written: 1-based from the start, or negative from the end (-1 is the last page). */
type PageRef = number;

export type PageItem = { text: string } & ({ kind: "span"; from: PageRef; to: PageRef | "end" } | { kind: "odd" | "even" });

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

// A page, a page "-" a page, or a page "-" (to the end); either page may be negative.
const ITEM = /^(-?\d+)(?:-(-?\d+)?)?$/;
/** Longer lists are not a page selection anyone writes; they are refused before any work. */
export const PAGE_LIST_MAX_CHARS = 4000;

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

export function parsePageItem(raw: string): Parsed<PageItem> {
  const text = raw.trim();
  if (text === "") return fail("the list has an empty entry; separate pages with single commas.");
  const word = text.toLowerCase();
  if (word === "odd" || word === "even") return { ok: true, value: { text, kind: word } };
  const m = ITEM.exec(text.replace(/\s+/g, ""));
  if (!m) return fail(`"${text}" is not a page number, a range (5-7, -3--1, 2-), odd or even.`);
  const from = Number(m[1]);
  const to = m[2] !== undefined ? Number(m[2]) : text.endsWith("-") ? "end" : from;
  for (const page of [from, to]) if (page === 0) return fail(`"${text}": there is no page 0; pages count from 1 (or from -1 for the last).`);
  return { ok: true, value: { text, kind: "span", from, to } };
}

/** A comma-separated page list; its entries in the order written. */
export function parsePageList(spec: string): Parsed<PageItem[]> {
  if (spec.length > PAGE_LIST_MAX_CHARS) return fail(`the list is longer than ${PAGE_LIST_MAX_CHARS} characters.`);
  if (spec.trim() === "") return fail("the list is empty.");
  const items: PageItem[] = [];
  for (const raw of spec.split(",")) {
    const item = parsePageItem(raw);
    if (!item.ok) return item;
    items.push(item.value);
  }
  return { ok: true, value: items };
}

/** A 1-based page or negative page as a 0-based index into `count` pages, or an error naming it. */
function indexOf(page: PageRef, count: number, text: string): Parsed<number> {
  const index = page > 0 ? page - 1 : count + page;
  if (index < 0 || index >= count) {
    const where = page > 0 ? "past the end" : "before the first page";
    return fail(`"${text}": page ${page} is ${where}; there ${count === 1 ? "is 1 page" : `are ${count} pages`}.`);
  }
  return { ok: true, value: index };
}

/** 0-based indexes from `from` to `to` inclusive, counting down when `to` is before `from`. */
export function pageSpan(from: number, to: number): number[] {
  const step = to >= from ? 1 : -1;
  return Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => from + i * step);
}

/**
 * The 0-based pages a list selects from `count` pages, in the order written
 * and with repeats kept: "3,1,3" is three pages. A span written backwards
 * (5-2, -1-1) runs backwards. `limit` caps the total, checked before any
 * span is expanded.
 */
export function resolvePageList(items: PageItem[], count: number, limit = Number.POSITIVE_INFINITY): Parsed<number[]> {
  const spans: [number, number][] = [];
  let total = 0;
  for (const item of items) {
    if (item.kind !== "span") {
      const first = item.kind === "odd" ? 0 : 1;
      if (first >= count) return fail(`"${item.text}": there are no even pages in a document of 1 page.`);
      for (let i = first; i < count; i += 2) spans.push([i, i]);
      total += Math.ceil((count - first) / 2);
    } else {
      const from = indexOf(item.from, count, item.text);
      if (!from.ok) return from;
      const to = item.to === "end" ? { ok: true as const, value: count - 1 } : indexOf(item.to, count, item.text);
      if (!to.ok) return to;
      spans.push([from.value, to.value]);
      total += Math.abs(to.value - from.value) + 1;
    }
    if (total > limit) return fail(`the list selects more than ${limit} pages.`);
  }
  return { ok: true, value: spans.flatMap(([from, to]) => pageSpan(from, to)) };
}
