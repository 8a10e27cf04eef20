import { union } from "./geometry";
import type { Table, TextLine } from "./types";

// A table of contents: entries that run into dot leaders and end in a page
// number ("1.1  Security fundamentals . . . . . 2"). Read as prose they run
// together into one unreadable paragraph; docling and marker give them as a
// two-column table (entry, page), and so do we. Leaders are left out: they
// are layout, not text.

const MIN_ENTRIES = 3;
const ENTRY = /^(.*?[\p{L}\p{N})!?'’"”])\s*(?:\.\s*){3,}\s*(\d{1,4}|[ivxlcdm]{1,7})\s*$/iu;

const textOf = (l: TextLine) =>
  l.spans
    .map((s) => s.text)
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/** Runs of table-of-contents entries among the page's lines. */
export function tocTables(lines: TextLine[]): Table[] {
  const tables: Table[] = [];
  let run: { rows: string[][]; box: TextLine["box"]; last: TextLine } | null = null;
  let pending: TextLine[] = [];
  const flush = () => {
    if (run && run.rows.length >= MIN_ENTRIES) tables.push({ kind: "stream", box: run.box, rows: run.rows, confidence: 0.9 });
    run = null;
    pending = [];
  };
  for (const line of [...lines].sort((a, b) => a.box[1] - b.box[1])) {
    const height = line.box[3] - line.box[1];
    const near = run !== null && line.box[1] - run.last.box[3] < 2.5 * height && line.box[0] < run.box[2] && line.box[2] > run.box[0];
    const m = ENTRY.exec(textOf(line));
    if (!near) {
      flush();
      if (!m) continue;
    }
    if (!m) {
      // An entry's title wrapped onto a line of its own: its leaders and page come on the next line.
      pending.push(line);
      if (pending.length > 1) flush();
      continue;
    }
    const title = [...pending.map(textOf), m[1]].join(" ");
    const box = [...pending, line].map((l) => l.box).reduce(union);
    if (run) {
      run.rows.push([title, m[2]]);
      run.box = union(run.box, box);
      run.last = line;
    } else run = { rows: [[title, m[2]]], box, last: line };
    pending = [];
  }
  flush();
  return tables;
}
