import { z } from "zod";
import type { Env } from "../../env";
import { readPages } from "../layout/document";
import { dropFurniture } from "../layout/furniture";
import { sheetsOf, typedRows } from "../layout/sheets";
import { withPdf } from "../mupdf/core/document";
import type { Table } from "../layout/types";
import { type Sheet, writeXlsx } from "../layout/xlsx";
import { jsonAnswer } from "./answers";
import { AI_BUDGETS } from "./budgets";
import { renderForVision } from "./page-images";
import { askVisionInBatches } from "./vision-pages";

// engine=vision for PDF to Excel: the model reads the first
// AI_BUDGETS.visionMaxPages pages and answers their tables as JSON, checked
// and bounded here, then typed and written by the layout engine's workbook
// writer; later pages' tables come from the deterministic engine. No table
// found by the model: null, and the tool runs the deterministic engine.

const MAX_TABLES = 50;
const MAX_ROWS = 2_000;
const MAX_COLS = 50;
const MAX_CELL_CHARS = 2_000;

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]).transform((v) => (v === null ? "" : String(v).slice(0, MAX_CELL_CHARS)));
const TABLES = z.object({
  tables: z.array(z.object({ page: z.number().int().positive().optional(), rows: z.array(z.array(cell).max(MAX_COLS)).max(MAX_ROWS) })).max(MAX_TABLES),
});

export const VISION_TABLES_PROMPT = [
  "You find the tables in images of PDF pages.",
  'Answer one JSON object: {"tables": [{"page": <page number given in the request>, "rows": [[cell, ...], ...]}]}, header row first, one string or number per cell, "" for an empty cell.',
  "Copy cell text exactly; do not invent rows or values. Prose is not a table.",
  'With no table on the pages, answer {"tables": []}.',
].join(" ");

export interface VisionWorkbook {
  xlsx: Uint8Array;
  pages: number;
  tablesFound: number;
  sheets: number;
}

export async function visionWorkbookOfPdf(env: Env, bytes: Uint8Array): Promise<VisionWorkbook | null> {
  const { images, pages } = await renderForVision(bytes, AI_BUDGETS.visionMaxPages);
  const sheets: Sheet[] = [];
  for (const b of await askVisionInBatches(env, images, VISION_TABLES_PROMPT, true)) sheets.push(...sheetsOfAnswer(b.text, b.pages));
  if (!sheets.length) return null;
  if (pages > images.length) sheets.push(...(await layoutTablesAfter(bytes, images.length)));
  const bounded = sheets.slice(0, MAX_TABLES);
  return { xlsx: writeXlsx(bounded), pages, tablesFound: bounded.length, sheets: bounded.length };
}

/** Tables the deterministic engine finds on the pages the model did not read (0-based `from` on); no per-page text fallback. */
function layoutTablesAfter(bytes: Uint8Array, from: number): Promise<Sheet[]> {
  return withPdf(bytes, (doc, mupdf) => {
    const tail = dropFurniture(readPages(doc, mupdf)).filter((page) => page.index >= from);
    const { sheets, tablesFound } = sheetsOf(tail.map((page) => ({ page, tables: page.tables })));
    return tablesFound ? sheets : [];
  });
}

/** The answer's tables as sheets; an answer that is not the asked shape counts as no table. */
export function sheetsOfAnswer(text: string, numbers: number[]): Sheet[] {
  const parsed = jsonAnswer(text);
  const checked = parsed.ok ? TABLES.safeParse(parsed.value) : null;
  if (!checked?.success) return [];
  const perPage = new Map<number, number>();
  const sheets: Sheet[] = [];
  for (const t of checked.data.tables) {
    const rows = t.rows.filter((r) => r.some((c) => c.trim()));
    if (!rows.length) continue;
    const width = Math.max(...rows.map((r) => r.length));
    const page = t.page && numbers.includes(t.page) ? t.page : numbers[0];
    const index = (perPage.get(page) ?? 0) + 1;
    perPage.set(page, index);
    const table: Table = { kind: "stream", box: [0, 0, 0, 0], rows: rows.map((r) => [...r, ...Array(width - r.length).fill("")]), confidence: 1 };
    sheets.push({ name: `Page ${page} Table ${index}`, rows: typedRows(table) });
  }
  return sheets;
}
