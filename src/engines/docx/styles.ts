// What word/styles.xml says about paragraph styles that an HTML reading
// (mammoth's) drops: each style's font size (w:sz, half-points, through
// its w:basedOn chain; the body also from w:docDefaults) and whether it
// starts a new page (w:pageBreakBefore). Plain scans over the part, which
// is small; no DOM.

export interface ParagraphStyle {
  id: string;
  name: string;
  basedOn?: string;
  /** Points, when the style itself states a size. */
  size?: number;
  /** When the style itself says (w:pageBreakBefore, on or off). */
  pageBreakBefore?: boolean;
}

export interface DocxStyles {
  styles: Map<string, ParagraphStyle>;
  /** The style of a paragraph that names none (w:default="1"). */
  defaultId?: string;
  /** w:docDefaults' run size, points. */
  defaultSize?: number;
}

const attr = (xml: string, re: RegExp): string | undefined => re.exec(xml)?.[1];

/** An on/off property (ST_OnOff): present means on unless its w:val says 0, false or off. */
export function onOff(xml: string, name: string): boolean | undefined {
  const tag = new RegExp(`<w:${name}(?:\\s[^>]*)?/?>`).exec(xml)?.[0];
  if (!tag) return undefined;
  return !/w:val="(?:0|false|off)"/.test(tag);
}

/** Half-points of a run properties' w:sz, as points. */
function size(rPr: string | undefined): number | undefined {
  const v = Number(attr(rPr ?? "", /<w:sz\s+w:val="(\d+(?:\.\d+)?)"/));
  return Number.isFinite(v) && v > 0 ? v / 2 : undefined;
}

export function readDocxStyles(stylesXml: string | undefined): DocxStyles {
  const styles = new Map<string, ParagraphStyle>();
  let defaultId: string | undefined;
  if (!stylesXml) return { styles };
  const defaults = /<w:rPrDefault>([\s\S]*?)<\/w:rPrDefault>/.exec(stylesXml)?.[1];
  for (const s of stylesXml.match(/<w:style\b[^>]*>[\s\S]*?<\/w:style>/g) ?? []) {
    const open = s.slice(0, s.indexOf(">") + 1);
    if (!/w:type="paragraph"/.test(open)) continue;
    const id = attr(open, /w:styleId="([^"]*)"/);
    if (id === undefined) continue;
    if (/w:default="(?:1|true|on)"/.test(open)) defaultId ??= id;
    const pPr = /<w:pPr\b[^>]*>([\s\S]*?)<\/w:pPr>/.exec(s)?.[1] ?? "";
    styles.set(id, {
      id,
      name: attr(s, /<w:name\s+w:val="([^"]*)"/) ?? id,
      basedOn: attr(s, /<w:basedOn\s+w:val="([^"]*)"/),
      size: size(/<w:rPr\b[^>]*>([\s\S]*?)<\/w:rPr>/.exec(s)?.[1]),
      pageBreakBefore: onOff(pPr, "pageBreakBefore"),
    });
  }
  return { styles, defaultId, defaultSize: size(defaults) };
}

/** The first value a style or one it is based on states (a chain that loops ends where it loops). */
export function inherited<K extends "size" | "pageBreakBefore">(read: DocxStyles, id: string | undefined, key: K): ParagraphStyle[K] | undefined {
  const seen = new Set<string>();
  for (let s = id === undefined ? undefined : read.styles.get(id); s && !seen.has(s.id); s = s.basedOn ? read.styles.get(s.basedOn) : undefined) {
    seen.add(s.id);
    if (s[key] !== undefined) return s[key];
  }
  return undefined;
}

/** Sizes printed when the document states none: a body of 11 pt, headings clearly above it and each other. */
export const FALLBACK_SIZES = { body: 11, headings: [18, 14, 12, 11, 11, 11] } as const;

export interface TextSizes {
  /** Points. */
  body: number;
  /** Heading 1 to 6, points. */
  headings: number[];
}

/** The body's and each heading level's size: the document's own where it states them, else FALLBACK_SIZES. */
export function textSizes(read: DocxStyles): TextSizes {
  const body = inherited(read, read.defaultId, "size") ?? read.defaultSize ?? FALLBACK_SIZES.body;
  const headings = FALLBACK_SIZES.headings.map((fallback, i) => {
    const level = i + 1;
    // mammoth maps a heading by its id (Heading1) or its name (heading 1): so are sizes found.
    const style = [...read.styles.values()].find((s) => s.id === `Heading${level}` || s.name.toLowerCase() === `heading ${level}`);
    return inherited(read, style?.id, "size") ?? fallback;
  });
  return { body, headings };
}
