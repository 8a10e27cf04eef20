// ToUnicode CMaps (PDF 32000-1, 9.10.3) whose ligature glyphs read as the
// letters they join. MuPDF's HTML engine shapes text with the font's `liga`
// feature ("final" is drawn with the fi glyph) and its PDF writer maps that
// glyph to U+FB01, the glyph's own code point: a reader then finds "ﬁnal",
// and a search for "final" fails. A ToUnicode destination may be several
// characters, so each ligature glyph is mapped to its letters instead
// (U+FB00-FB06 by their compatibility decomposition: ff, fi, fl, ffi, ffl,
// st, st); the drawing, ligatures and all, is unchanged.

const FIRST_LIGATURE = 0xfb00;
const LAST_LIGATURE = 0xfb06;

const isLigature = (unit: number): boolean => unit >= FIRST_LIGATURE && unit <= LAST_LIGATURE;

/** The UTF-16BE hex of a ligature's letters. */
const lettersHex = (unit: number): string =>
  [...String.fromCharCode(unit).normalize("NFKC")].map((c) => (c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")).join("");

type Entry = { kind: "char"; src: string; dst: string; expanded?: boolean } | { kind: "range"; lo: string; hi: string; dst: string };
type Token = string | { array: string };

const SECTION = /(\d+)\s+begin(bfchar|bfrange)\b([\s\S]*?)\bend\2\b/g;
// One source code, an optional range end, then a hex destination or an array of them.
const TOKEN = /<([0-9a-fA-F\s]*)>|\[([^\]]*)\]/g;

/**
 * The CMap with every destination in U+FB00-FB06 replaced by its letters;
 * null when it maps no glyph to a ligature (the caller keeps the stream).
 */
export function expandLigatures(cmap: string): string | null {
  const sections = [...cmap.matchAll(SECTION)];
  if (!sections.length) return null;
  const entries: Entry[] = [];
  let changed = false;
  for (const [, , kind, body] of sections) {
    const tokens = [...body.matchAll(TOKEN)].map((t): Token => (t[1] !== undefined ? t[1].replace(/\s+/g, "") : { array: t[2] }));
    const step = kind === "bfchar" ? 2 : 3;
    for (let i = 0; i + step <= tokens.length; i += step) {
      const [src, b, c] = tokens.slice(i, i + step);
      if (typeof src !== "string" || typeof b !== "string") return null;
      const parsed = kind === "bfchar" ? [charEntry(src, b)] : typeof c === "string" ? splitRange(src, b, c) : arrayEntries(src, c.array);
      changed ||= parsed.some((e) => e.kind === "char" && e.expanded === true);
      entries.push(...parsed);
    }
  }
  if (!changed) return null;
  // The rewritten sections take the place of the first; whatever else the CMap says stays.
  let n = 0;
  return cmap.replace(SECTION, () => (n++ === 0 ? writeSections(entries) : ""));
}

const hexOf = (n: number, width: number): string => n.toString(16).padStart(width, "0");

/** A one-unit ligature destination becomes its letters. */
function charEntry(src: string, dst: string): Entry {
  const unit = dst.length === 4 ? Number.parseInt(dst, 16) : -1;
  return isLigature(unit) ? { kind: "char", src, dst: lettersHex(unit), expanded: true } : { kind: "char", src, dst };
}

/** `<lo> <hi> [<d0> <d1> ...]`: one char entry per code. */
function arrayEntries(lo: string, array: string): Entry[] {
  const start = Number.parseInt(lo, 16);
  return [...array.matchAll(/<([0-9a-fA-F\s]*)>/g)].map((m, k) => charEntry(hexOf(start + k, lo.length), m[1].replace(/\s+/g, "")));
}

/** A range `<lo> <hi> <dst>` as ranges around its ligature codes and one char entry for each of them. */
function splitRange(lo: string, hi: string, dst: string): Entry[] {
  const start = Number.parseInt(lo, 16);
  const end = Number.parseInt(hi, 16);
  const first = Number.parseInt(dst, 16);
  // Only a one-unit destination can reach U+FB00-FB06 as it counts up.
  if (dst.length !== 4 || first + (end - start) < FIRST_LIGATURE || first > LAST_LIGATURE) return [{ kind: "range", lo, hi, dst }];
  const out: Entry[] = [];
  let runStart = start;
  for (let code = start; code <= end + 1; code++) {
    const unit = first + (code - start);
    if (code <= end && !isLigature(unit)) continue;
    if (code > runStart) out.push({ kind: "range", lo: hexOf(runStart, lo.length), hi: hexOf(code - 1, lo.length), dst: hexOf(first + (runStart - start), 4) });
    if (code <= end) out.push({ kind: "char", src: hexOf(code, lo.length), dst: lettersHex(unit), expanded: true });
    runStart = code + 1;
  }
  return out;
}

/** Entries as sections of at most 100 (PDF 32000-1, 9.10.3), chars first. */
function writeSections(entries: Entry[]): string {
  const chars = entries.flatMap((e) => (e.kind === "char" ? [`<${e.src}> <${e.dst}>`] : []));
  const ranges = entries.flatMap((e) => (e.kind === "range" ? [`<${e.lo}> <${e.hi}> <${e.dst}>`] : []));
  const parts: string[] = [];
  for (const [name, lines] of [
    ["bfchar", chars],
    ["bfrange", ranges],
  ] as const) {
    for (let i = 0; i < lines.length; i += 100) {
      const chunk = lines.slice(i, i + 100);
      parts.push(`${chunk.length} begin${name}\n${chunk.join("\n")}\nend${name}`);
    }
  }
  return parts.join("\n");
}
