import type { Block, PageModel, Span, Table } from "./types";

// CommonMark with GitHub pipe tables. Inline styles come from span flags;
// text is escaped so a literal `*` or `[` never turns into markup.

const escapeText = (t: string) => t.replace(/([\\`*_[\]<>])/g, "\\$1");

type Mark = { bold: boolean; italic: boolean; mono: boolean; link?: string };
const sameMark = (a: Mark, b: Mark) => a.bold === b.bold && a.italic === b.italic && a.mono === b.mono && a.link === b.link;

export function inline(spans: Span[], plain = false): string {
  const runs: (Mark & { text: string })[] = [];
  for (const s of spans) {
    const mark: Mark = s.text.trim() === "" && !s.link ? (runs[runs.length - 1] ?? s) : s;
    const last = runs[runs.length - 1];
    if (last && sameMark(last, mark)) last.text += s.text;
    else runs.push({ bold: mark.bold, italic: mark.italic, mono: mark.mono, link: mark.link, text: s.text });
  }
  return runs
    .map((r) => styled(r, plain))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function styled(r: Mark & { text: string }, plain: boolean): string {
  const core = r.text.trim();
  if (!core) return r.text;
  const lead = r.text.slice(0, r.text.indexOf(core));
  const tail = r.text.slice(lead.length + core.length);
  let out: string;
  if (r.mono && !plain) {
    const fence = core.includes("`") ? "``" : "`";
    out = `${fence}${fence.length > 1 ? " " : ""}${core}${fence.length > 1 ? " " : ""}${fence}`;
  } else {
    out = escapeText(core);
    if (!plain && r.italic) out = `*${out}*`;
    if (!plain && r.bold) out = `**${out}**`;
  }
  if (r.link) out = `[${out}](<${r.link.replace(/[<>]/g, encodeURIComponent)}>)`;
  return lead + out + tail;
}

/** A paragraph's first characters must not read as a heading, list or quote. */
const guardStart = (t: string) => t.replace(/^(#{1,6}\s|[-+]\s|\d+[.)]\s|=+\s*$|-{3,}\s*$|\|)/, (m) => `\\${m}`);

function table(t: Table): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
  const cols = Math.max(...t.rows.map((r) => r.length));
  const row = (r: string[]) => `| ${Array.from({ length: cols }, (_, i) => cell(r[i] ?? "")).join(" | ")} |`;
  const [head, ...body] = t.rows;
  return [row(head), `|${" --- |".repeat(cols)}`, ...body.map(row)].join("\n");
}

function block(b: Block, page: number): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(b.level)} ${inline(b.spans, true)}`;
    case "paragraph":
      return guardStart(inline(b.spans));
    case "list-item": {
      const marker = b.ordered ? `${/\d+/.exec(b.marker)?.[0] ?? "1"}.` : "-";
      return `${"   ".repeat(b.depth)}${marker} ${inline(b.spans)}`;
    }
    case "code":
      return ["```", ...b.lines, "```"].join("\n");
    case "table":
      return table(b.table);
    case "image":
      return `![](#page-${page + 1}-image-${b.index + 1})`;
  }
}

/** Blocks joined by blank lines; list items of one list by single newlines. */
export function renderMarkdown(pages: PageModel[]): string {
  const parts: string[] = [];
  let prev: Block | undefined;
  for (const page of pages) {
    for (const b of page.blocks) {
      const text = block(b, page.index);
      if (!text.trim()) continue;
      const tight = prev?.kind === "list-item" && b.kind === "list-item";
      parts.push(parts.length ? (tight ? "\n" : "\n\n") : "", text);
      prev = b;
    }
  }
  return parts.join("") + (parts.length ? "\n" : "");
}

/** Words a reader sees: markup, link targets and image references left out. */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\]\(<[^>]*>\)|\]\([^)]*\)/g, " ")
    .replace(/^\s*(#{1,6}|[-*+]|\d+\.)\s/gm, " ")
    .replace(/^\|?\s*(-{3,}\s*\|\s*)+$/gm, " ");
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** ATX heading lines outside code fences. */
export function countHeadings(markdown: string): number {
  let fenced = false;
  let n = 0;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,6} \S/.test(line)) n++;
  }
  return n;
}
