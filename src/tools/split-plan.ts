import { z } from "zod";
import { LIMITS } from "../config";
import type { PartSpec, PdfOutlineSummary } from "../engines/mupdf/pages/split";
import { ApiError } from "../errors";
import { safeFilename } from "../storage/outputs";
import { pageSpan } from "./page-list";

// Pure: turns split_mode + split_config into the list of parts, with the
// 400s of docs/reference/pdf-merge-split.md for configs that are malformed, yield nothing or yield too much.

const rangesConfig = z.object({
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])).min(1),
});
const countConfig = z.object({ pages_per_file: z.number().int().min(1) });

function malformed(detail: string): never {
  throw new ApiError("bad_request", `split_config: ${detail}`, { errors: [{ field: "split_config", message: detail }] });
}

// Every span here runs forwards (start <= end is checked, and counts are >= 1).
const range = pageSpan;

export function planSplit(doc: PdfOutlineSummary, mode: string, config: Record<string, unknown>, baseName: string): PartSpec[] {
  const base = safeFilename(baseName, "document");
  const n = doc.pages;
  let parts: PartSpec[];
  switch (mode) {
    case "page_range": {
      const parsed = rangesConfig.safeParse(config);
      if (!parsed.success) malformed('page_range needs {"ranges": [[start, end], ...]} with whole numbers.');
      parts = parsed.data.ranges.map(([start, end]) => {
        if (start < 1 || end < start || end > n) {
          malformed(`range [${start}, ${end}] is not within 1..${n} with start <= end.`);
        }
        return { name: `${base}_pages_${start}-${end}.pdf`, pages: range(start - 1, end - 1) };
      });
      break;
    }
    case "page_count": {
      const parsed = countConfig.safeParse(config);
      if (!parsed.success) malformed('page_count needs {"pages_per_file": N} with N >= 1.');
      const size = parsed.data.pages_per_file;
      const count = Math.ceil(n / size);
      if (count > LIMITS.splitParts) tooMany(count);
      parts = Array.from({ length: count }, (_, k) => ({
        name: `${base}_part_${k + 1}.pdf`,
        pages: range(k * size, Math.min(n, (k + 1) * size) - 1),
      }));
      break;
    }
    case "bookmarks":
      parts = byBookmarks(doc);
      break;
    default:
      // Any other mode (AI and content modes included) is one file per page (docs/reference/pdf-merge-split.md).
      if (n > LIMITS.splitParts) tooMany(n);
      parts = range(0, n - 1).map((p) => ({ name: `${base}_page_${p + 1}.pdf`, pages: [p] }));
  }
  if (parts.length === 0) throw new ApiError("empty_output", "The split configuration yields no output file.");
  if (parts.length > LIMITS.splitParts) tooMany(parts.length);
  return parts;
}

function tooMany(count: number): never {
  throw new ApiError("too_many_parts", `The split would produce ${count} files; at most ${LIMITS.splitParts} are allowed.`);
}

/**
 * One part per top-level bookmark, from its page to the page before the next
 * one. Bookmarks sharing a page share one part, titled by the later one;
 * pages before the first bookmark belong to the first part, so none is lost.
 */
function byBookmarks(doc: PdfOutlineSummary): PartSpec[] {
  const byPage = new Map<number, string>();
  for (const mark of [...doc.bookmarks].sort((a, b) => a.page - b.page)) byPage.set(mark.page, mark.title);
  const marks = [...byPage.entries()].map(([page, title]) => ({ page, title }));
  if (marks.length === 0) throw new ApiError("no_bookmarks", "The PDF has no top-level bookmarks to split by.");
  if (marks.length > LIMITS.splitParts) tooMany(marks.length);
  const width = Math.max(2, String(marks.length).length);
  return marks.map((mark, i) => {
    const from = i === 0 ? 0 : mark.page;
    const to = i + 1 < marks.length ? marks[i + 1].page - 1 : doc.pages - 1;
    const title = bookmarkFileTitle(mark.title) || `section_${i + 1}`;
    return { name: `${String(i + 1).padStart(width, "0")}_${title}.pdf`, pages: range(from, to) };
  });
}

/** A bookmark title safe as a ZIP entry name on every OS. */
export function bookmarkFileTitle(title: string): string {
  return title
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "")
    .slice(0, 80);
}
