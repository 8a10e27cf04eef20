import { z } from "zod";
import { fillForm } from "../engines/mupdf/forms/fill";
import { ApiError } from "../errors";
import { derivedPdfName } from "../storage/outputs";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { XFA_ONLY } from "./forms-read";
import { defineTool } from "./define";
import { formBool, formJson } from "./fields";

const MAX_VALUES = 2000;
const MAX_CHARS = 20_000;

const text = z.string().max(MAX_CHARS);
const values = formJson(
  z
    .record(z.string(), z.union([text, z.boolean(), z.array(text)]), { error: "values must be a JSON object of field name to value." })
    .refine((v) => Object.keys(v).length <= MAX_VALUES, `At most ${MAX_VALUES} values.`),
)
  .optional()
  .default({})
  .meta({
    type: "string",
    contentMediaType: "application/json",
    description:
      'A JSON object by full field name: strings for text and combo boxes, a string or array of strings for list boxes, true/false or the on-state name for checkboxes, the on-state name (or "Off") for radio groups. Choices match export values, then display texts.',
  });

export const formsFill = defineTool({
  id: "forms-fill",
  name: "Fill form",
  method: "post",
  path: "/api/v1/pdf/forms/fill",
  body: "multipart",
  summary:
    "Fill a PDF's AcroForm fields by name with appearance streams regenerated for every filled widget, optionally flattened into page content. Beyond the original API contract.",
  operations: [{ key: "pdf.forms.fill", name: "Fill form", credits: 10, access: "free-try" }],
  problems: ["xfa_not_supported"],
  // Memory: the default estimate from the upload size: one document parsed and rewritten, appearances are small streams.
  request: z
    .object({
      file: pdfUpload415(),
      values,
      flatten: formBool(false).meta({ description: "Turn the fields into page content: the output has no form fields left." }),
      flatten_annotations: formBool(false).meta({ description: "With flatten: bake every other annotation (comments, stamps, drawings) into the pages too." }),
    })
    .superRefine((i, ctx) => {
      // Without flatten it would be ignored silently.
      if (i.flatten_annotations && !i.flatten)
        ctx.addIssue({ code: "custom", path: ["flatten_annotations"], message: "flatten_annotations needs flatten=true." });
    }),
  response: z.object({
    ...completedJob,
    file_url: z.string(),
    fields_filled: z.number().int(),
    flattened: z.boolean(),
    pages: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const outcome = await fillForm(data, input.values, { flatten: input.flatten, flattenAnnotations: input.flatten_annotations });
    if (!outcome.ok && "xfaOnly" in outcome) throw new ApiError("xfa_not_supported", XFA_ONLY);
    if (!outcome.ok) {
      const errors = outcome.problems.map((p) => ({ field: `values.${p.name}`, message: p.message }));
      throw new ApiError("validation_failed", `${errors.length} value(s) refused; nothing was filled.`, { errors });
    }
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "filled"), contentType: "application/pdf", data: outcome.data });
    return {
      body: {
        ...completedFields(ctx, started),
        file_url: stored.url,
        fields_filled: outcome.fieldsFilled,
        flattened: outcome.flattened,
        pages: outcome.pages,
      },
    };
  },
});
