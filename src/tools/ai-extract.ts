import { z } from "zod";
import { extractData, NoExtractableText } from "../engines/ai/extract/extract";
import { PRESETS, presetFieldList, presetSchema } from "../engines/ai/extract/presets";
import { schemaProblems, validatorProblem } from "../engines/ai/extract/schema-check";
import { textModelConfigured, visionModelConfigured } from "../engines/ai/provider";
import { ApiError } from "../errors";
import { aiStep } from "./ai-errors";
import { engineField, pdfUpload415 } from "./common";
import { MODEL_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formJson } from "./fields";

// AI extract data (docs/tools/ai.md). The presets are JSON Schemas in code
// (engines/ai/extract/presets.ts); a caller's schema must be JSON and a
// usable JSON Schema before anything is charged.

const MiB = 1024 * 1024;

const presetDescription = `\`invoice\`, \`receipt\` or \`resume\`; blank or any other value extracts the document's salient fields. Ignored when \`schema\` is given. Fields: ${Object.keys(
  PRESETS,
)
  .map((name) => `${name}: ${presetFieldList(name)}`)
  .join("; ")}. Every field is null when the document does not state it.`;

export const aiExtract = defineTool({
  id: "ai-extract",
  name: "AI extract data",
  method: "post",
  path: "/api/v1/ai/extract-data",
  body: "multipart",
  summary: "Extract structured JSON from a PDF with a preset or your JSON schema.",
  operations: [
    { key: "ai.extract", name: "AI extraction", credits: 100, access: "plan:aiExtract" },
    { key: "ai.extract.ai", name: "AI extraction with vision", credits: 200, access: "plan:aiExtract" },
  ],
  selectOperation: (i) => (i.engine === "vision" ? "ai.extract.ai" : "ai.extract"),
  problems: ["ai_not_configured", "llm_not_configured", "no_extractable_text", ...MODEL_PROBLEMS],
  request: z.object({
    file: pdfUpload415(),
    preset: z.string().default("auto").meta({ description: presetDescription }),
    schema: formJson(z.unknown(), "validation_failed")
      .superRefine((schema, ctx) => {
        for (const message of schemaProblems(schema)) ctx.addIssue({ code: "custom", message: `Not a usable JSON Schema: ${message}.` });
      })
      .optional()
      .meta({ description: "A JSON Schema (drafts 4 to 2020-12) the answer must meet; overrides `preset`. Not JSON, or not a JSON Schema: 422." }),
    engine: engineField.meta({
      description: "`auto` reads the text layer; `vision` reads the first 3 pages as images (200 credits even when it falls back to the text).",
    }),
  }),
  response: z.object({
    success: z.boolean(),
    data: z.unknown().meta({ description: "The extracted JSON; `{_unparsed: <model text>}` when no valid answer came after one retry." }),
    credits_charged: z.number().int(),
    engine: z
      .enum(["auto", "vision"])
      .meta({ description: "The path that produced `data`: `vision`, or `auto` (text) also when vision found nothing and fell back." }),
    preset: z.string().nullable().meta({ description: "The preset as sent (`auto` when none); null when a schema was given, since the preset was ignored." }),
    had_schema: z.boolean(),
    parsed_ok: z.boolean(),
    processing_time_ms: z.number().int(),
  }),
  // The parsed PDF, and for vision up to three page images (2 MP each, RGB plus JPEG) while they are encoded.
  memory: (i) => 8 * MiB + 4 * (i.file instanceof File ? i.file.size : 0) + (i.engine === "vision" ? 24 * MiB : 0),
  async handler(ctx, input) {
    const started = Date.now();
    if (input.engine === "vision" && !visionModelConfigured(ctx.env))
      throw new ApiError("ai_not_configured", "engine=vision needs an AI vision model, and none is configured here; nothing was charged. Use engine=auto.");
    if (input.engine === "auto" && !textModelConfigured(ctx.env))
      throw new ApiError("llm_not_configured", "AI extract needs an AI text model, and none is configured here; nothing was charged.");
    const hadSchema = input.schema !== undefined;
    const unusable = hadSchema ? await validatorProblem(input.schema) : null;
    if (unusable) throw new ApiError("validation_failed", `schema: ${unusable}.`);
    const schema = hadSchema ? (input.schema as Record<string, unknown> | boolean) : presetSchema(input.preset);
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    const outcome = await aiStep(() => extractData(ctx.env, { bytes, schema, engine: input.engine })).catch((err: unknown) => {
      if (err instanceof NoExtractableText) throw new ApiError("no_extractable_text", err.message);
      throw err;
    });
    return {
      body: {
        success: true,
        data: outcome.data,
        engine: outcome.engine,
        preset: hadSchema ? null : input.preset,
        had_schema: hadSchema,
        parsed_ok: outcome.parsedOk,
        processing_time_ms: Math.max(0, Math.round(Date.now() - started)),
      },
    };
  },
});
