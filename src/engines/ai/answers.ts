// Model output is never trusted: these turn an answer into Markdown or JSON
// or say it is neither. Everything here is pure and bounded by the caller's
// answer budget (provider.ts cuts answers before they get here).

/** Drops one wrapping code fence (```markdown ... ```), which models add unasked. */
export function stripFence(text: string): string {
  const m = /^\s*```[a-zA-Z0-9_-]*[ \t]*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return (m ? m[1] : text).trim();
}

/** What a model says when asked to answer nothing for an empty page. */
export const NOTHING_FOUND = "NO_CONTENT";

/** Markdown from a model answer; "" when it found nothing. */
export function markdownAnswer(text: string): string {
  const md = stripFence(text)
    // Control characters other than tab and newline have no place in Markdown.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .trim();
  return md.replace(/[`*#\s.]/g, "") === NOTHING_FOUND ? "" : md;
}

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON from a model answer: the whole text, a fenced block, or the outermost {...} / [...] in it. */
export function jsonAnswer(text: string): Parsed {
  const candidates = [text.trim(), stripFence(text)];
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const close = text[start] === "{" ? "}" : "]";
    const end = text.lastIndexOf(close);
    if (end > start) candidates.push(text.slice(start, end + 1));
  }
  for (const c of candidates) {
    try {
      return { ok: true, value: JSON.parse(c) };
    } catch {
      // next candidate
    }
  }
  return { ok: false, reason: text.trim() ? "The answer is not JSON." : "The answer is empty." };
}
