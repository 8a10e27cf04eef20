// mammoth's HTML of a DOCX as GitHub Markdown. mammoth's own Markdown
// writer (deprecated upstream) knows no tables: each cell came out as a
// paragraph of its own, so a table read as loose lines. Its HTML is the
// reading mammoth keeps up (headings, paragraphs, lists, tables with
// colspan and rowspan, links, pictures, notes), in a small, regular subset
// of HTML (html-writer.js: every element closed or self-closed, text and
// attributes escaped), which this walks as a stream of tags: no DOM, so the
// memory is the output and the one table being gathered.
//
// Blocks are separated by blank lines; a table is a pipe table whose header
// is its first row, cells escaped for `|`, a cell's paragraphs joined with
// <br>; lists nest by their markers' width (CommonMark's content column).

const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?)*)\s*(\/?)>|<!--[\s\S]*?-->|[^<]+|</g;
const ATTR = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?/g;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] !== "#") return ENTITIES[e] ?? m;
    const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });

/** Text that Markdown must print as written: its inline syntax characters escaped (line starts are seen to per line). */
const escapeText = (s: string): string => s.replace(/[\\`*_[\]<~]/g, "\\$&").replace(/&(?=#?[a-zA-Z0-9]+;)/g, "\\&");

/** A line that would start a heading, quote, list, or setext underline if left as it is. */
const escapeLineStart = (line: string): string => line.replace(/^([#>+=-])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");

/** Emphasis around text: the marks hug the words (CommonMark needs no space inside them), whitespace stays outside. */
function wrap(s: string, mark: string): string {
  const core = s.trim();
  if (!core) return s;
  const lead = s.slice(0, s.length - s.trimStart().length);
  const trail = s.slice(s.trimEnd().length);
  return `${lead}${mark}${core}${mark}${trail}`;
}

const href = (url: string): string => (/[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url);

/** Line breaks (<br>) travel as "\n" inside a block's text until the block knows how to write them. */
const BREAK = "\n";

interface Frame {
  tag: string;
  attrs: Record<string, string>;
  /** Inline text gathered for this element. */
  parts: string[];
  /** Finished inner paragraphs of a list item. */
  lines: string[];
}

interface List {
  ordered: boolean;
  count: number;
  /** Column where this list's items' text starts. */
  indent: number;
  /** The open item: its marker, and whether its first line was written. */
  item: { marker: string; written: boolean } | null;
}

/** A finished block: its Markdown, and its text as plain lines (what a table cell shows of it). */
interface Block {
  md: string;
  flat: string[];
}

interface Cell {
  blocks: Block[];
  colspan: number;
  rowspan: number;
}

interface Table {
  rows: Cell[][];
  row: Cell[] | null;
}

const HEADING = /^h([1-6])$/;
const BLOCKS = new Set(["p", "div", "dt", "dd", "blockquote", "pre"]);
const isCell = (tag: string) => tag === "td" || tag === "th";

class Writer {
  private readonly blocks: Block[] = [];
  private readonly stack: Frame[] = [];
  private readonly lists: List[] = [];
  private listLines: string[] = [];
  private listFlat: string[] = [];
  private readonly tables: Table[] = [];
  /** A table cell is read by a writer of its own (its blocks are what the cell holds); `depth` counts cells nested in it. */
  private cell: { writer: Writer; depth: number; attrs: Record<string, string> } | null = null;

  open(tag: string, attrs: Record<string, string>, selfClosing: boolean): void {
    if (this.cell) {
      if (isCell(tag) && !selfClosing) this.cell.depth++;
      this.cell.writer.open(tag, attrs, selfClosing);
      return;
    }
    if (isCell(tag) && !selfClosing && this.tables.at(-1)?.row) {
      this.cell = { writer: new Writer(), depth: 0, attrs };
      return;
    }
    // An element's id (a note, a bookmark) stays a link target, as mammoth's own writer kept it.
    const anchor = attrs.id && !attrs.id.startsWith("_GoBack") ? `<a id="${attrs.id.replace(/["<>&]/g, encodeURIComponent)}"></a>` : "";
    if (anchor && (selfClosing || tag === "a")) this.emit(anchor);
    if (tag === "br") {
      this.emit(BREAK);
      return;
    }
    if (tag === "img") {
      const alt = escapeText(decode(attrs.alt ?? "")).replace(/\s+/g, " ");
      if (attrs.src) this.emit(`![${alt}](${href(decode(attrs.src))})`);
      return;
    }
    if (tag === "input" && attrs.type === "checkbox") {
      this.emit("checked" in attrs ? "[x] " : "[ ] ");
      return;
    }
    if (selfClosing) return;
    if (tag === "ul" || tag === "ol") {
      this.writeItemLine();
      const outer = this.lists.at(-1);
      const indent = outer?.item ? outer.indent + outer.item.marker.length + 1 : (outer?.indent ?? 0);
      this.lists.push({ ordered: tag === "ol", count: 0, indent, item: null });
    } else if (tag === "li") {
      const list = this.lists.at(-1);
      if (list) {
        list.count++;
        list.item = { marker: list.ordered ? `${list.count}.` : "-", written: false };
      }
    } else if (tag === "table") {
      this.tables.push({ rows: [], row: null });
    } else if (tag === "tr") {
      const table = this.tables.at(-1);
      if (table) table.row = [];
    }
    this.stack.push({ tag, attrs, parts: anchor && tag !== "a" ? [anchor] : [], lines: [] });
  }

  close(tag: string): void {
    if (this.cell) {
      if (isCell(tag) && this.cell.depth-- === 0) {
        this.closeCell();
        return;
      }
      this.cell.writer.close(tag);
      return;
    }
    const at = this.stack.findLastIndex((f) => f.tag === tag);
    if (at < 0) return;
    while (this.stack.length > at) this.finish(this.stack.pop() as Frame);
  }

  text(raw: string): void {
    if (this.cell) {
      this.cell.writer.text(raw);
      return;
    }
    this.emit(escapeText(decode(raw)));
  }

  /** Everything read, as blocks; open elements are closed first. */
  finishBlocks(): Block[] {
    if (this.cell) this.closeCell();
    while (this.stack.length) this.finish(this.stack.pop() as Frame);
    return this.blocks;
  }

  private emit(s: string): void {
    const top = this.stack.at(-1);
    if (top) top.parts.push(s);
    else this.stack.push({ tag: "p", attrs: {}, parts: [s], lines: [] });
  }

  private finish(frame: Frame): void {
    const text = frame.parts.join("");
    const heading = HEADING.exec(frame.tag);
    switch (frame.tag) {
      case "strong":
      case "b":
        this.emit(wrap(text, "**"));
        return;
      case "em":
      case "i":
        this.emit(wrap(text, "*"));
        return;
      case "s":
      case "del":
        this.emit(wrap(text, "~~"));
        return;
      case "sup":
      case "sub":
        this.emit(text.trim() ? `<${frame.tag}>${text}</${frame.tag}>` : text);
        return;
      case "a":
        this.emit(frame.attrs.href && text.trim() ? `[${text}](${href(decode(frame.attrs.href))})` : text);
        return;
      case "ul":
      case "ol":
        this.closeList();
        return;
      case "li":
        this.closeItem(frame);
        return;
      case "tr": {
        const table = this.tables.at(-1);
        if (table?.row) table.rows.push(table.row);
        if (table) table.row = null;
        return;
      }
      case "table":
        this.closeTable();
        return;
      default:
        if (heading) {
          this.heading(Number(heading[1]), text);
          return;
        }
        if (BLOCKS.has(frame.tag)) {
          this.paragraph([...frame.lines, text]);
          return;
        }
        // Any other element (u, span, thead, tbody...) only passes its text on.
        if (text) this.emit(text);
    }
  }

  /** The open list item, when the innermost open element that holds paragraphs is one. */
  private item(): Frame | undefined {
    return this.stack.findLast((f) => f.tag === "li");
  }

  /** A finished paragraph: into the open list item, else a block of its own. */
  private paragraph(texts: string[]): void {
    const lines = texts
      .flatMap((t) => t.split(BREAK))
      .map((l) => l.trim())
      .filter(Boolean);
    if (!lines.length) return;
    const li = this.item();
    if (li) intoItem(li, lines.join(BREAK));
    else this.blocks.push({ md: lines.map(escapeLineStart).join("  \n"), flat: lines });
  }

  private heading(level: number, text: string): void {
    const line = oneLine(text);
    if (!line) return;
    const li = this.item();
    if (li) intoItem(li, line);
    else this.blocks.push({ md: `${"#".repeat(level)} ${line}`, flat: [line] });
  }

  /** A block inside the open list item is indented to its text; elsewhere it stands alone. */
  private place(block: Block): void {
    const list = this.lists.at(-1);
    if (!list?.item) {
      this.blocks.push(block);
      return;
    }
    this.writeItemLine();
    const pad = " ".repeat(list.indent + list.item.marker.length + 1);
    this.listLines.push(...block.md.split("\n").map((l) => pad + l));
    this.listFlat.push(...block.flat);
  }

  /** Writes the open item's own text as its first line (before a nested list or table, or as it ends). */
  private writeItemLine(frame?: Frame): void {
    const list = this.lists.at(-1);
    const item = list?.item;
    const li = frame ?? this.item();
    if (!list || !item || !li) return;
    const lines = [...li.lines, li.parts.join("")]
      .flatMap((t) => t.split(BREAK))
      .map((l) => l.trim())
      .filter(Boolean);
    li.lines = [];
    li.parts = [];
    const pad = " ".repeat(list.indent);
    const inner = " ".repeat(list.indent + item.marker.length + 1);
    lines.forEach((line, i) => {
      const first = i === 0 && !item.written;
      this.listLines.push(first ? `${pad}${item.marker} ${escapeLineStart(line)}` : `${inner}${escapeLineStart(line)}`);
      this.listFlat.push(first ? `${item.marker} ${line}` : line);
    });
    if (!item.written && !lines.length) this.listLines.push(`${pad}${item.marker}`);
    item.written = true;
  }

  private closeItem(frame: Frame): void {
    const list = this.lists.at(-1);
    if (!list?.item) {
      this.paragraph([...frame.lines, frame.parts.join("")]);
      return;
    }
    this.writeItemLine(frame);
    list.item = null;
  }

  private closeList(): void {
    this.lists.pop();
    if (this.lists.length) return;
    const block = { md: this.listLines.join("\n"), flat: this.listFlat };
    this.listLines = [];
    this.listFlat = [];
    if (block.md) this.place(block);
  }

  private closeCell(): void {
    const cell = this.cell;
    if (!cell) return;
    this.cell = null;
    const span = (name: string) => Math.max(1, Math.min(1000, Number.parseInt(cell.attrs[name] ?? "1", 10) || 1));
    this.tables.at(-1)?.row?.push({ blocks: cell.writer.finishBlocks(), colspan: span("colspan"), rowspan: span("rowspan") });
  }

  private closeTable(): void {
    const table = this.tables.pop();
    if (!table) return;
    const only = table.rows.length === 1 && table.rows[0].length === 1 ? table.rows[0][0] : null;
    // A table of one cell is Word's way of boxing content, not data: its content stands as it is.
    if (only) {
      for (const b of only.blocks) this.place(b);
      return;
    }
    const grid = layOut(table.rows);
    if (!grid[0]?.length) return;
    const lines = grid.map((r) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`);
    lines.splice(1, 0, `|${grid[0].map(() => " --- ").join("|")}|`);
    this.place({ md: lines.join("\n"), flat: grid.map((r) => r.filter(Boolean).join(" ")).filter(Boolean) });
  }
}

/** A paragraph inside a list item: after the item's text so far (an anchor alone opens the paragraph's own line). */
function intoItem(li: Frame, text: string): void {
  const pending = li.parts.join("").trim();
  li.parts = [];
  if (/^(?:<a id="[^"]*"><\/a>)+$/.test(pending)) {
    li.lines.push(pending + text);
    return;
  }
  if (pending) li.lines.push(pending);
  li.lines.push(text);
}

/** What a cell shows in one line of a pipe table: its blocks' lines, joined by <br>. */
const cellText = (blocks: Block[]): string => blocks.flatMap((b) => b.flat).join("<br>");

const oneLine = (s: string): string =>
  s
    .split(BREAK)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ");

/** Rows as a rectangle: a cell spanning columns or rows leaves empty cells where it reaches. */
function layOut(rows: Cell[][]): string[][] {
  const grid: string[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (grid[r][c] !== undefined) c++;
      for (let dr = 0; dr < cell.rowspan && r + dr < rows.length; dr++)
        for (let dc = 0; dc < cell.colspan; dc++) grid[r + dr][c + dc] = dr === 0 && dc === 0 ? cellText(cell.blocks) : "";
      c += cell.colspan;
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  return grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
}

/** GitHub Markdown of mammoth's HTML (see above). */
export function docxHtmlToMarkdown(html: string): string {
  const writer = new Writer();
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    const [token, closing, name, attrText, selfClose] = m;
    if (name === undefined) {
      if (!token.startsWith("<!--")) writer.text(token);
      continue;
    }
    const tag = name.toLowerCase();
    if (closing) {
      writer.close(tag);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (attrText ?? "").matchAll(ATTR)) attrs[a[1].toLowerCase()] = a[2] ?? "";
    writer.open(tag, attrs, selfClose === "/" || tag === "br" || tag === "img" || tag === "input" || tag === "hr");
  }
  TOKEN.lastIndex = 0;
  const blocks = writer.finishBlocks();
  return blocks.length ? `${blocks.map((b) => b.md).join("\n\n")}\n` : "";
}
