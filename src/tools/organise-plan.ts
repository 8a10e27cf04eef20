import { z } from "zod";
import { LIMITS } from "../config";
import type { OrganisePlan } from "../engines/mupdf/pages/organise";
import type { BlankSpec, CropSpec, Margin } from "../engines/mupdf/pages/organise-geometry";
import { ApiError } from "../errors";
import { type PageItem, type Parsed, parsePageItem, resolvePageList } from "./page-list";

// Pure: the Organise pages fields' syntax (checked by the schema, before the
// document is opened) and the plan they make once the page count is known.

export const ROTATIONS = [90, 180, 270, -90] as const;

/** Named blank page formats, portrait, in points. */
export const BLANK_SIZES = {
  a3: [842, 1191],
  a4: [595, 842],
  a5: [420, 595],
  letter: [612, 792],
  legal: [612, 1008],
} as const satisfies Record<string, [number, number]>;

/** One rotate entry: pages (every page when absent) and degrees. */
export interface RotateEntry {
  pages: PageItem | null;
  degrees: number;
}

/** One insert_blank entry: before or after each listed page, or at the start or end. */
export type BlankEntry = { where: "start" | "end" } | { where: "before" | "after"; pages: PageItem };

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** A form field parsed by `parse`; its errors are 422s on that field. */
export function syntaxField<T>(parse: (raw: string) => Parsed<T>, description: string) {
  return z
    .string()
    .max(4000)
    .transform((raw, ctx): T => {
      const parsed = parse(raw);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    })
    .meta({ description });
}

/** Splits on commas and parses each entry, stopping at the first bad one. */
function entries<T>(raw: string, parse: (entry: string) => Parsed<T>): Parsed<T[]> {
  if (raw.trim() === "") return fail("the list is empty.");
  const out: T[] = [];
  for (const entry of raw.split(",")) {
    const parsed = parse(entry.trim());
    if (!parsed.ok) return parsed;
    out.push(parsed.value);
  }
  return { ok: true, value: out };
}

export function parseRotate(raw: string): Parsed<RotateEntry[]> {
  return entries(raw, (entry): Parsed<RotateEntry> => {
    const colon = entry.lastIndexOf(":");
    const angleText = entry.slice(colon + 1).trim();
    const degrees = Number(angleText);
    if (!/^-?\d+$/.test(angleText) || !(ROTATIONS as readonly number[]).includes(degrees)) {
      return fail(`"${entry}": the angle must be 90, 180, 270 or -90 (write pages:angle, or one angle for every page).`);
    }
    if (colon < 0) return { ok: true, value: { pages: null, degrees } };
    const pages = parsePageItem(entry.slice(0, colon));
    return pages.ok ? { ok: true, value: { pages: pages.value, degrees } } : pages;
  });
}

export function parseInsertBlank(raw: string): Parsed<BlankEntry[]> {
  return entries(raw, (entry): Parsed<BlankEntry> => {
    const word = entry.toLowerCase();
    if (word === "start" || word === "end") return { ok: true, value: { where: word } };
    const m = /^(before|after)\s*:(.*)$/i.exec(entry);
    if (!m) return fail(`"${entry}" is not a position; write after:N, before:N, start or end.`);
    const pages = parsePageItem(m[2]);
    return pages.ok ? { ok: true, value: { where: m[1].toLowerCase() as "before" | "after", pages: pages.value } } : pages;
  });
}

export function parseCrop(raw: string): Parsed<CropSpec["margins"]> {
  const parts = raw.split(",").map((s) => s.trim());
  if (parts.length !== 1 && parts.length !== 4) return fail("give four margins, left,bottom,right,top (or one for every side).");
  const margins: Margin[] = [];
  for (const part of parts) {
    const m = /^(\d+(?:\.\d+)?)\s*(%?)$/.exec(part);
    if (!m) return fail(`"${part}" is not a margin; write points (36) or a per cent (10%), never negative.`);
    const margin = { value: Number(m[1]), percent: m[2] === "%" };
    if (margin.percent && margin.value >= 100) return fail(`"${part}": a per-cent margin must be under 100%.`);
    margins.push(margin);
  }
  const [l, b, r, t] = margins.length === 1 ? [margins[0], margins[0], margins[0], margins[0]] : margins;
  return { ok: true, value: [l, b, r, t] };
}

export interface OrganiseFields {
  pages?: PageItem[];
  delete?: PageItem[];
  rotate?: RotateEntry[];
  insert_blank?: BlankEntry[];
  blank_size?: keyof typeof BLANK_SIZES;
  crop?: CropSpec["margins"];
  crop_pages?: PageItem[];
}

function resolved(field: string, items: PageItem[], count: number): number[] {
  const r = resolvePageList(items, count, LIMITS.pdfPages);
  if (r.ok) return r.value;
  throw new ApiError("validation_failed", `${field}: ${r.error}`, { errors: [{ field, message: r.error }] });
}

/** The plan for a document of `count` pages; each step numbers pages as the step before left them. */
export function planOrganise(fields: OrganiseFields, count: number): OrganisePlan {
  const selected = fields.pages ? resolved("pages", fields.pages, count) : Array.from({ length: count }, (_, i) => i);
  const dropped = new Set(fields.delete ? resolved("delete", fields.delete, count) : []);
  const order = selected.filter((p) => !dropped.has(p));
  if (order.length === 0) {
    const message = "no page is left to write once the deleted pages are removed.";
    throw new ApiError("validation_failed", `delete: ${message}`, { errors: [{ field: "delete", message }] });
  }
  const rotate = order.map(() => 0);
  for (const entry of fields.rotate ?? []) {
    const at = entry.pages ? resolved("rotate", [entry.pages], order.length) : rotate.map((_, i) => i);
    for (const k of at) rotate[k] += entry.degrees;
  }
  const blanks = blankSpecs(fields, order.length);
  const total = order.length + blanks.length;
  const cropped = fields.crop_pages ? unique(resolved("crop_pages", fields.crop_pages, total)) : Array.from({ length: total }, (_, i) => i);
  const crop = fields.crop ? { margins: fields.crop, pages: cropped } : null;
  return { order, rotate, blanks, crop };
}

function blankSpecs(fields: OrganiseFields, count: number): BlankSpec[] {
  const named = fields.blank_size ? ([...BLANK_SIZES[fields.blank_size]] as [number, number]) : null;
  return (fields.insert_blank ?? []).flatMap((entry): BlankSpec[] => {
    if (!("pages" in entry)) {
      return entry.where === "start" ? [{ before: 0, size: named ?? { like: 0 } }] : [{ before: count, size: named ?? { like: count - 1 } }];
    }
    return resolved("insert_blank", [entry.pages], count).map((k) => ({
      before: entry.where === "before" ? k : k + 1,
      size: named ?? { like: k },
    }));
  });
}

const unique = (pages: number[]) => [...new Set(pages)];
