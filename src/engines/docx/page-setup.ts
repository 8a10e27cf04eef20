// The page a Word document asks for: size, orientation and margins from the
// body's final w:sectPr (the document's last section, which is what most
// documents have as their only one). Values are twentieths of a point.

export interface PageSetup {
  /** Points. */
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number };
}

const attr = (tag: string, name: string): number | null => {
  const m = new RegExp(`\\bw:${name}="(-?\\d+)"`).exec(tag);
  return m ? Number(m[1]) / 20 : null;
};

/** The last section's page setup, or null when the document states none. */
export function docxPageSetup(documentXml: string): PageSetup | null {
  const start = documentXml.lastIndexOf("<w:sectPr");
  if (start < 0) return null;
  const sect = documentXml.slice(start, documentXml.indexOf("</w:sectPr>", start) + 1 || undefined);
  const size = /<w:pgSz\b[^>]*>/.exec(sect)?.[0];
  if (!size) return null;
  let width = attr(size, "w");
  let height = attr(size, "h");
  if (!width || !height) return null;
  // w:orient only says how to read w and h when they disagree with it.
  if (/w:orient="landscape"/.test(size) && width < height) [width, height] = [height, width];
  const mar = /<w:pgMar\b[^>]*>/.exec(sect)?.[0] ?? "";
  const m = (name: string, fallback: number) => Math.max(0, attr(mar, name) ?? fallback);
  return { width, height, margins: { top: m("top", 72), right: m("right", 72), bottom: m("bottom", 72), left: m("left", 72) } };
}

/** The CSS @page rule for a setup (the browser engine prints with preferCssPageSize). */
export function pageCss(setup: PageSetup): string {
  const { top, right, bottom, left } = setup.margins;
  return `@page{size:${setup.width}pt ${setup.height}pt;margin:${top}pt ${right}pt ${bottom}pt ${left}pt}`;
}
