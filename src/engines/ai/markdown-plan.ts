import { type Token, type Tokens, marked } from "marked";
import type { FlowItem, PagePlan, TablePlan } from "../convert/pdf-docx/page-plan";
import type { ParagraphSpec, Run } from "../convert/pdf-docx/paragraphs";

// Markdown (a vision model's reading of one page) into the page plan the
// PDF to DOCX writer takes (../convert/pdf-docx/write-docx.ts): headings,
// paragraphs, lists, quotes, code and tables, on the source page's size.
// No second DOCX writer: only the plan is built here.

const MARGIN = 54;
const BODY = 11;
const HEADING = [0, 20, 16, 14, 12, 11, 11];
const GAP = 6;
const ROW = 18;
const FONT = "Calibri";

type ItemBody = { kind: "paragraph"; paragraph: ParagraphSpec } | { kind: "table"; table: TablePlan };

interface Style {
  bold: boolean;
  italic: boolean;
  font: string;
  size: number;
}

export function pagePlanOfMarkdown(markdown: string, width: number, height: number): PagePlan {
  const items: FlowItem[] = [];
  let y = MARGIN;
  const push = (item: ItemBody) => {
    y += GAP;
    items.push({ ...item, top: y, bottom: y });
  };
  const content = width - 2 * MARGIN;
  const walk = (tokens: Token[], indent: number) => {
    for (const t of tokens) {
      if (t.type === "heading")
        push({ kind: "paragraph", paragraph: para(inline((t as Tokens.Heading).tokens, style(HEADING[(t as Tokens.Heading).depth] ?? BODY, true)), indent) });
      else if (t.type === "paragraph" || t.type === "text") push({ kind: "paragraph", paragraph: para(inline(tokensOf(t), style(BODY)), indent) });
      else if (t.type === "code")
        push({ kind: "paragraph", paragraph: para([run((t as Tokens.Code).text, { ...style(BODY - 1), font: "Courier New" })], indent) });
      else if (t.type === "blockquote") walk((t as Tokens.Blockquote).tokens, indent + 18);
      else if (t.type === "list") listItems(t as Tokens.List, indent);
      else if (t.type === "table") {
        push({ kind: "table", table: tablePlan(t as Tokens.Table, MARGIN + indent, content - indent, y) });
        y += ROW * ((t as Tokens.Table).rows.length + 1);
      }
    }
  };
  const listItems = (list: Tokens.List, indent: number) => {
    list.items.forEach((item, i) => {
      const marker = list.ordered ? `${(Number(list.start) || 1) + i}.` : "•";
      const [first, ...rest] = item.tokens;
      const runs = first && (first.type === "text" || first.type === "paragraph") ? inline(tokensOf(first), style(BODY)) : [];
      push({ kind: "paragraph", paragraph: { ...para([run(`${marker}\t`, style(BODY)), ...runs], indent + 18), firstLine: -14 } });
      walk(runs.length ? rest : item.tokens, indent + 18);
    });
  };
  walk(marked.lexer(markdown, { gfm: true }), 0);
  return { width, height, margins: { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN }, items };
}

const style = (size: number, bold = false): Style => ({ bold, italic: false, font: FONT, size });

function tokensOf(t: Token): Token[] {
  const nested = (t as { tokens?: Token[] }).tokens;
  return nested?.length ? nested : [{ type: "text", raw: t.raw, text: (t as { text?: string }).text ?? t.raw } as Token];
}

const run = (text: string, s: Style): Run => ({ text, font: s.font, size: s.size, bold: s.bold, italic: s.italic, underline: false, color: "000000" });

/** Inline tokens as runs: strong and em set the style, links keep their text, line breaks become spaces. */
function inline(tokens: Token[], s: Style): Run[] {
  const runs: Run[] = [];
  for (const t of tokens) {
    if (t.type === "strong") runs.push(...inline(tokensOf(t), { ...s, bold: true }));
    else if (t.type === "em") runs.push(...inline(tokensOf(t), { ...s, italic: true }));
    else if (t.type === "link" || t.type === "del") runs.push(...inline(tokensOf(t), s));
    else if (t.type === "codespan") runs.push(run((t as Tokens.Codespan).text, { ...s, font: "Courier New" }));
    else if (t.type === "br") runs.push(run(" ", s));
    else if (t.type === "image") continue;
    else if ("tokens" in t && Array.isArray(t.tokens) && t.tokens.length) runs.push(...inline(t.tokens, s));
    else runs.push(run(decode((t as { text?: string }).text ?? t.raw), s));
  }
  return runs.filter((r) => r.text);
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function para(runs: Run[], indent: number): ParagraphSpec {
  return { runs, alignment: "left", indentLeft: indent, firstLine: 0, indentRight: 0, pitch: null, bbox: [0, 0, 0, 0] };
}

function tablePlan(t: Tokens.Table, left: number, width: number, top: number): TablePlan {
  const rows = [t.header, ...t.rows];
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const xs = Array.from({ length: cols + 1 }, (_, i) => left + (width * i) / cols);
  const ys = Array.from({ length: rows.length + 1 }, (_, i) => top + ROW * i);
  const cells = rows.map((r, ri) =>
    Array.from({ length: cols }, (_, c) => {
      const cell = r[c];
      return cell ? [para(inline(cell.tokens, style(BODY - 1, ri === 0)), 0)] : [];
    }),
  );
  const ones = rows.map(() => Array<number>(cols).fill(1));
  return { grid: { xs, ys, spans: ones, rowSpans: ones.map((r) => [...r]), horizontals: [] }, cells };
}
