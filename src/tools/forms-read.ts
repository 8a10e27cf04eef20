import { z } from "zod";
import { readForm } from "../engines/mupdf/forms/read";
import { ApiError } from "../errors";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";

export const XFA_ONLY = "This PDF holds an XFA form only: XFA forms are not supported, only AcroForm fields.";

const option = z.object({
  value: z.string().meta({ description: "What the file stores when chosen: a choice's export value, a checkbox's or radio button's on-state name." }),
  label: z.string().meta({ description: "What a reader sees: a choice's display text; for buttons the /Opt export value, or the state name." }),
});

const field = z.object({
  name: z.string().meta({ description: "The full (dotted) field name: what Fill form takes as the key." }),
  type: z.enum(["text", "checkbox", "radio", "combo", "list", "button", "signature"]),
  value: z.union([z.string(), z.array(z.string())]).meta({
    description:
      "Text and combo boxes: the text; list boxes: the chosen export values (an array); checkboxes and radio groups: the selected on-state name, or Off.",
  }),
  options: z.array(option).meta({ description: "Combo and list boxes: their choices; checkboxes and radio groups: their on-states. Empty for other types." }),
  required: z.boolean(),
  read_only: z.boolean(),
  max_length: z.number().int().nullable().meta({ description: "A text field's /MaxLen, or null." }),
  multiline: z.boolean(),
  multi_select: z.boolean().meta({ description: "A list box that takes several choices." }),
  widgets: z
    .array(
      z.object({
        page: z.number().int().meta({ description: "1-based page number." }),
        rect: z.array(z.number()).meta({ description: "[x0, y0, x1, y1] in PDF points, the page's default user space (origin bottom-left)." }),
      }),
    )
    .meta({ description: "Where the field shows: one entry per widget (a radio group has one per button)." }),
});

export const formsRead = defineTool({
  id: "forms-read",
  name: "Read form fields",
  method: "post",
  path: "/api/v1/pdf/forms/read",
  body: "multipart",
  summary:
    "List a PDF's AcroForm fields: full name, type, value, options or on-states, required, read-only, max length, multiline and each widget's page and rectangle. Beyond the original API contract.",
  operations: [{ key: "pdf.forms.read", name: "Read form fields", credits: 10, access: "free-try" }],
  problems: ["xfa_not_supported"],
  // Memory: the default estimate from the upload size: one document parsed, nothing rendered or written.
  request: z.object({ file: pdfUpload415() }),
  response: z.object({
    ...completedJob,
    fields: z.array(field).meta({ description: "In page order of each field's first widget; empty when the PDF has no form." }),
    pages: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const form = await readForm(data);
    if (form.xfaOnly) throw new ApiError("xfa_not_supported", XFA_ONLY);
    return {
      body: {
        ...completedFields(ctx, started),
        fields: form.fields.map((f) => ({
          name: f.name,
          type: f.type,
          value: f.value,
          options: f.options,
          required: f.required,
          read_only: f.readOnly,
          max_length: f.maxLength,
          multiline: f.multiline,
          multi_select: f.multiSelect,
          widgets: f.widgets,
        })),
        pages: form.pages,
      },
    };
  },
});
