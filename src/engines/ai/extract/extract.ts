import type { Env } from "../../../env";
import { markdownOfPdf } from "../../layout";
import type { PageOcr } from "../../layout/document";
import { pdfPageTexts } from "../../mupdf/render/page-images";
import { ocrPage } from "../../ocr/page";
import { jsonAnswer } from "../answers";
import { AI_BUDGETS } from "../budgets";
import { renderForVision } from "../page-images";
import { chat, modelConfigured } from "../provider";
import type { ChatImage, ChatMessage, ModelKind } from "../types";
import { allowNullProperties, fillNulls, foundNothing } from "./answer-shape";
import { newValidator, type OutputUnit, type Validator } from "./validator";

// AI extract (docs/tools/ai.md): the document's text, or its first pages as images,
// to a model that answers JSON; the answer is parsed, completed with nulls
// and validated against the schema, asked for once more with the
// validation errors, and otherwise handed back as `_unparsed`.

export interface ExtractInput {
  bytes: Uint8Array;
  /** The JSON Schema the answer must meet; null asks for the document's salient fields. */
  schema: Record<string, unknown> | boolean | null;
  engine: "auto" | "vision";
}

export interface ExtractOutcome {
  data: unknown;
  parsedOk: boolean;
  /** The path that produced `data`: "vision", or "auto" (text) also when vision found nothing and fell back. */
  engine: "auto" | "vision";
}

/** No text layer and nothing for the text path to read: 422 no_extractable_text (docs/tools/ai.md). */
export class NoExtractableText extends Error {
  override name = "NoExtractableText";
}

export const EXTRACT_PROMPT = [
  "You extract data from a document into JSON.",
  "Answer with one JSON value only, no prose and no code fences.",
  "Use null for every field the document does not state; never guess, infer or invent a value.",
  "Copy names, identifiers and dates as printed; give amounts and quantities as plain numbers without currency symbols or thousands separators.",
].join(" ");

const SALIENT =
  "Answer one JSON object of the document's salient fields (parties, names, identifiers, dates, amounts, totals, addresses), with snake_case keys.";
const ANY_OBJECT = { type: "object" };

export async function extractData(env: Env, input: ExtractInput): Promise<ExtractOutcome> {
  if (input.engine === "vision") {
    const { images } = await renderForVision(input.bytes, AI_BUDGETS.visionPagesPerCall);
    const seen = await ask(env, "vision", input.schema, `The document's first ${images.length} page(s) are attached as images, in order.`, images);
    if (seen.parsedOk && !foundNothing(seen.data)) return { ...seen, engine: "vision" };
    // Vision falls back to the text path when it finds nothing; with no text either, its own answer stands (docs/tools/ai.md).
    const text = await documentText(input.bytes).catch((err: unknown) => {
      if (err instanceof NoExtractableText) return null;
      throw err;
    });
    if (text === null) return { ...seen, engine: "vision" };
    return { ...(await ask(env, textKind(env), input.schema, text)), engine: "auto" };
  }
  return { ...(await ask(env, "text", input.schema, await documentText(input.bytes))), engine: "auto" };
}

/** The vision fallback runs on the text model when there is one, else on the vision model (it reads text too). */
const textKind = (env: Env): ModelKind => (modelConfigured(env, "text") ? "text" : "vision");

/** OCR of the first AI_BUDGETS.extractOcrPages scanned pages; later pages are left out (their words would pass the text budget anyway). */
const firstPagesOcr: PageOcr = async (doc, mupdf, index) => {
  if (index < AI_BUDGETS.extractOcrPages) return ocrPage(doc, mupdf, index);
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    return { width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), words: [] };
  } finally {
    page.destroy();
  }
};

/** A scan's text as the layout engine reads it through OCR (docs/tools/ocr.md), Markdown included. */
async function scannedText(bytes: Uint8Array): Promise<string> {
  return (await markdownOfPdf(bytes, firstPagesOcr)).markdown.trim();
}

async function documentText(bytes: Uint8Array): Promise<string> {
  const { text, pages } = await pdfPageTexts(bytes);
  const layer = text
    .replace(/\f/g, "\n\n")
    .replace(/[ \t]+/g, " ")
    .trim();
  // No text layer: a scan, read by OCR as PDF to Markdown reads it.
  const clean = layer || (await scannedText(bytes));
  if (!clean) {
    throw new NoExtractableText(
      `The PDF has no text layer, and OCR found no readable text on its first ${AI_BUDGETS.extractOcrPages} page(s); try engine=vision. Nothing was charged.`,
    );
  }
  const cut = clean.length > AI_BUDGETS.extractTextChars;
  const head = `Document text (${pages} page(s)${cut ? `, cut after ${AI_BUDGETS.extractTextChars} characters` : ""}):`;
  return `${head}\n\n${cut ? clean.slice(0, AI_BUDGETS.extractTextChars) : clean}`;
}

async function ask(env: Env, kind: ModelKind, schema: ExtractInput["schema"], document: string, images?: ChatImage[]): Promise<Omit<ExtractOutcome, "engine">> {
  const target = schema === null ? ANY_OBJECT : schema;
  const validator = await newValidator(allowNullProperties(target));
  const instruction = schema === null ? SALIENT : `The answer must be valid against this JSON Schema:\n${JSON.stringify(schema)}`;
  const messages: ChatMessage[] = [
    { role: "system", content: EXTRACT_PROMPT },
    { role: "user", content: `${instruction}\n\n${document}` },
  ];
  let raw = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    raw = (await chat(env, { kind, messages, images, json: true, maxTokens: AI_BUDGETS.extractMaxTokens })).text;
    const checked = checkAnswer(raw, schema, validator);
    if (checked.ok) return { data: checked.data, parsedOk: true };
    // One more try, told what was wrong (the issue: retried once with the validation errors).
    messages.push(
      { role: "assistant", content: raw },
      { role: "user", content: `That answer is not usable: ${checked.errors.join("; ")}. Answer again with the JSON only.` },
    );
  }
  return { data: { _unparsed: raw }, parsedOk: false };
}

type Checked = { ok: true; data: unknown } | { ok: false; errors: string[] };

export function checkAnswer(raw: string, schema: ExtractInput["schema"], validator: Validator): Checked {
  const parsed = jsonAnswer(raw);
  if (!parsed.ok) return { ok: false, errors: [parsed.reason] };
  const data = schema === null ? parsed.value : fillNulls(schema, parsed.value);
  const result = validator.validate(data);
  if (result.valid) return { ok: true, data };
  return { ok: false, errors: leafErrors(result.errors) };
}

/** The validator's errors, most specific first, at most ten. */
function leafErrors(errors: OutputUnit[]): string[] {
  const leaves = errors.filter((e) => !/did not match|failed to validate/i.test(e.error));
  return (leaves.length ? leaves : errors).slice(0, 10).map((e) => `${e.instanceLocation} ${e.error}`);
}
