import { describe, expect, it } from "vitest";
import { jsonAnswer, markdownAnswer, stripFence } from "../../../src/engines/ai/answers";
import { chunkMarkdown } from "../../../src/engines/ai/chunks";
import { guardRewrite } from "../../../src/engines/ai/content-guard";
import { allowNullProperties, fillNulls, foundNothing } from "../../../src/engines/ai/extract/answer-shape";
import { PRESETS, presetFieldList, presetSchema } from "../../../src/engines/ai/extract/presets";
import { schemaProblems } from "../../../src/engines/ai/extract/schema-check";
import { shouldRetry, withOneRetry } from "../../../src/engines/ai/retry";
import { AiError } from "../../../src/engines/ai/types";
import { aiExtract } from "../../../src/tools/ai-extract";
import { memoryEstimate } from "../../../src/tools/memory-estimate";
import { splitPages } from "../../../src/engines/ai/vision-pages";
import { sheetsOfAnswer } from "../../../src/engines/ai/vision-tables";

// The AI engine's pure parts: nothing here calls a model.

describe("model answers", () => {
  it("strips one wrapping fence, keeps inner ones", () => {
    expect(stripFence("```markdown\n# T\n```")).toBe("# T");
    expect(stripFence("text\n```js\nx\n```\nmore")).toBe("text\n```js\nx\n```\nmore");
  });

  it("reads JSON from the text, a fence, or the outermost braces; says why when it cannot", () => {
    expect(jsonAnswer('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(jsonAnswer('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(jsonAnswer('Here it is: {"a": [1, 2]} hope it helps')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(jsonAnswer("no json")).toMatchObject({ ok: false });
    expect(jsonAnswer("")).toEqual({ ok: false, reason: "The answer is empty." });
  });

  it("NO_CONTENT (bare or dressed up) is nothing; control characters are dropped", () => {
    for (const nothing of ["NO_CONTENT", "**NO_CONTENT**", "`NO_CONTENT`.", "  "]) expect(markdownAnswer(nothing)).toBe("");
    expect(markdownAnswer("a\u0007b")).toBe("ab");
  });

  it("splits a vision answer at its page markers; no marker gives all to the first page", () => {
    expect(splitPages("intro\n<!-- page 4 -->\nD\n<!-- Page 5 -->\nNO_CONTENT", [4, 5])).toEqual(["D", ""]);
    expect(splitPages("All of it", [1, 2])).toEqual(["All of it", ""]);
    expect(splitPages("<!-- page 9 -->\nX", [1])).toEqual(["X"]);
  });

  it("vision tables: checked shape, padded rows, per-page numbering; anything else is no table", () => {
    const sheets = sheetsOfAnswer('{"tables":[{"page":2,"rows":[["a","b"],["1"]]},{"page":2,"rows":[["x"]]}]}', [1, 2]);
    expect(sheets.map((s) => s.name)).toEqual(["Page 2 Table 1", "Page 2 Table 2"]);
    expect(sheets[0].rows[1]).toHaveLength(2);
    expect(sheetsOfAnswer('{"tables":[{"rows":[[{"nested":1}]]}]}', [1])).toEqual([]);
    expect(sheetsOfAnswer(JSON.stringify({ tables: [{ rows: Array(2001).fill(["x"]) }] }), [1])).toEqual([]);
  });
});

describe("LLM cleanup pieces", () => {
  it("chunks at headings, then paragraphs, within the budget, losing nothing", () => {
    const md = ["# A", "para one ".repeat(20), "## B", "para two ".repeat(20), "para three ".repeat(20), "# C", "x".repeat(250)].join("\n\n");
    const chunks = chunkMarkdown(md, 200);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(200);
    expect(chunks.join("\n\n").replace(/\s+/g, "")).toBe(md.replace(/\s+/g, ""));
    expect(chunkMarkdown("# A\n\nshort\n\n# B\n\nshort", 1000)).toHaveLength(1);
  });

  it("the guard accepts reflowed text and refuses dropped, invented, grown or de-tabled rewrites", () => {
    const original = "# Report\n\nRevenue grew in the north and the south.\n\n| a | b |\n|---|---|\n| 1 | 2 |";
    expect(guardRewrite(original, "# Report\n\nRevenue grew in the\nnorth and the south.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |").ok).toBe(true);
    expect(guardRewrite(original, "# Report\n\n| a | b |\n|---|---|\n| 1 | 2 |")).toMatchObject({ ok: false });
    expect(guardRewrite(original, `${original}\n\nProfits doubled and the chairman resigned in protest today.`)).toMatchObject({ ok: false });
    expect(guardRewrite(original, "# Report\n\nRevenue grew in the north and the south.\n\na b 1 2")).toMatchObject({ ok: false, reason: "lost table rows" });
  });
});

describe("AI extract pieces", () => {
  it("fills declared-but-missing properties with null, nested and in arrays, and keeps extra keys", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, o: { type: "object", properties: { x: {}, y: {} } }, l: { type: "array", items: { properties: { q: {} } } } },
    };
    expect(fillNulls(schema, { o: { x: 1 }, l: [{}, { q: 2 }], extra: true })).toEqual({
      a: null,
      o: { x: 1, y: null },
      l: [{ q: null }, { q: 2 }],
      extra: true,
    });
  });

  it("relaxes declared properties to accept null without touching the rest", () => {
    const relaxed = allowNullProperties({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }) as {
      properties: { n: unknown };
      required: string[];
    };
    expect(relaxed.properties.n).toEqual({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(relaxed.required).toEqual(["n"]);
  });

  it("found nothing: nulls, blanks and empty containers only", () => {
    expect(foundNothing({ a: null, b: "", c: [], d: { e: null } })).toBe(true);
    expect(foundNothing({ a: 0 })).toBe(false);
    expect(foundNothing({ a: false })).toBe(false);
  });

  it("presets are schemas the checker accepts, with field lists for the docs", () => {
    for (const schema of Object.values(PRESETS)) expect(schemaProblems(schema)).toEqual([]);
    expect(presetSchema(" Invoice ")).toBe(PRESETS.invoice);
    expect(presetSchema("")).toBeNull();
    expect(presetFieldList("receipt")).toContain("merchant (name, address)");
    expect(presetFieldList("invoice")).toContain("line_items (description, quantity, unit_price, amount)");
  });

  it("schema checks: shapes of the core keywords, bounded size", () => {
    expect(schemaProblems({ type: "object", properties: { a: { type: ["string", "null"] } }, required: ["a"] })).toEqual([]);
    expect(schemaProblems(true)).toEqual([]);
    expect(schemaProblems(5)).toEqual(["# must be an object or a boolean"]);
    expect(schemaProblems({ anyOf: [] })[0]).toContain("anyOf");
    expect(schemaProblems({ items: [{ type: "nope" }] })[0]).toContain("#/items/0/type");
    expect(schemaProblems({ description: "x".repeat(40_000) })[0]).toContain("longer than");
  });
});

describe("retry policy", () => {
  it("retries once, only what another attempt may fix", async () => {
    expect(shouldRetry(new AiError("rate_limited", "x", 429), 1)).toBe(true);
    expect(shouldRetry(new AiError("upstream", "x", 502), 1)).toBe(true);
    expect(shouldRetry(new AiError("upstream", "x", 400), 1)).toBe(false);
    expect(shouldRetry(new AiError("bad_answer", "x"), 1)).toBe(false);
    expect(shouldRetry(new AiError("network", "x"), 2)).toBe(false);
    expect(shouldRetry(new Error("ours"), 1)).toBe(false);
    const waits: number[] = [];
    let n = 0;
    const value = await withOneRetry(
      async () => {
        n++;
        if (n === 1) throw new AiError("timeout", "slow");
        return "ok";
      },
      250,
      async (ms) => void waits.push(ms),
    );
    expect([value, n, waits]).toEqual(["ok", 2, [250]]);
    await expect(
      withOneRetry(
        async () => Promise.reject(new AiError("timeout", "slow")),
        1,
        async () => {},
      ),
    ).rejects.toMatchObject({ failure: "timeout" });
  });
});

describe("memory admission", () => {
  it("AI extract reserves the parsed PDF, and the page images on the vision path", () => {
    const upload = new File([new Uint8Array(1024 * 1024)], "a.pdf");
    const auto = memoryEstimate(aiExtract, { file: upload, engine: "auto", preset: "auto" });
    const vision = memoryEstimate(aiExtract, { file: upload, engine: "vision", preset: "auto" });
    expect(auto).toBe(12 * 1024 * 1024);
    expect(vision - auto).toBe(24 * 1024 * 1024);
  });
});
