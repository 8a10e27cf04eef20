// Markdown cut into pieces a model call can take: at headings first, then at
// blank lines, then (a single huge paragraph) at the budget itself. Joining
// the pieces with "\n\n" gives the document back.

export function chunkMarkdown(markdown: string, maxChars: number): string[] {
  const sections = markdown.split(/\n(?=#{1,6} )/);
  const pieces = sections.flatMap((s) => (s.length <= maxChars ? [s] : splitSection(s, maxChars)));
  const chunks: string[] = [];
  for (const piece of pieces.map((p) => p.trim()).filter(Boolean)) {
    const last = chunks.length - 1;
    if (last >= 0 && chunks[last].length + 2 + piece.length <= maxChars) chunks[last] += `\n\n${piece}`;
    else chunks.push(piece);
  }
  return chunks;
}

function splitSection(section: string, maxChars: number): string[] {
  return section.split(/\n{2,}/).flatMap((para) => {
    if (para.length <= maxChars) return [para];
    const parts: string[] = [];
    for (let i = 0; i < para.length; i += maxChars) parts.push(para.slice(i, i + maxChars));
    return parts;
  });
}
