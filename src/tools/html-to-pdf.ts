import { z } from "zod";
import { defineTool } from "./define";
import { formBool, formInt, upload } from "./fields";

export const htmlToPdf = defineTool({
  id: "html-to-pdf",
  name: "HTML to PDF",
  method: "post",
  path: "/api/v1/html/to-pdf",
  body: "multipart",
  summary: "Render an HTML file, markup or a URL to PDF with Browser Rendering.",
  operations: [{ key: "html.to_pdf", name: "HTML to PDF", credits: 40, access: "login" }],
  request: z.object({
    file: upload({ extensions: [".html", ".htm"], wrongType: "validation_failed" }).optional(),
    html: z.string().optional(),
    url: z.string().optional(),
    page_format: z.string().default("A4"),
    landscape: formBool(false),
    margin: z.enum(["none", "small", "default", "large"]).default("default"),
    print_background: formBool(true),
    screen_width: formInt({ min: 200, max: 5000 }).optional(),
    one_long_page: formBool(false),
    block_ads: formBool(false),
    remove_popups: formBool(false),
    page_numbers: formBool(false),
    header_html: z.string().optional(),
    footer_html: z.string().optional(),
  }),
  response: z.object({
    success: z.boolean(),
    url: z.string(),
    meta: z.object({
      source: z.string(),
      page_format: z.string(),
      landscape: z.boolean(),
      output_bytes: z.number().int(),
      repaginated_from_css_canvas: z.boolean(),
      processing_time_ms: z.number().int(),
    }),
    credits_charged: z.number().int(),
  }),
});
