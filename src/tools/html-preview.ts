import { z } from "zod";
import { screenshotPng } from "../engines/browser";
import { toBase64 } from "../secrets/encoding";
import { withZipEstimate } from "./memory-estimate";
import { BROWSER_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formBool, formInt } from "./fields";
import { HTML_ENGINE_ERRORS, loadOptionsOf, requireSource, resolveSource, sourceFields } from "./html-to-pdf";

// Renders a URL or HTML to a PNG screenshot returned as a base64 data URI;
// authenticated, not metered (docs/tools/html-to-pdf.md). The original API
// gave no fields for it: it takes
// HTML to PDF's sources and load options (same SSRF rules), plus the
// viewport and full-page choice. A 0-credit login operation runs it through
// the tool pipeline like every tool (access, scopes, validation, job record).

const d = (description: string) => ({ description });

export const htmlPreview = defineTool({
  id: "html-preview",
  name: "HTML preview",
  method: "post",
  path: "/api/v1/html/preview",
  body: "multipart",
  summary: "Render an HTML file, markup or a URL to a PNG screenshot (data URI); authenticated, not metered.",
  operations: [{ key: "html.preview", name: "HTML preview", credits: 0, access: "login" }],
  engineErrors: HTML_ENGINE_ERRORS,
  // An assets ZIP is unpacked in the isolate: its cap is reserved beside the uploads.
  memory: (input) => withZipEstimate(input, input.assets !== undefined),
  problems: [...BROWSER_PROBLEMS],
  request: z
    .object({
      ...sourceFields,
      viewport_width: formInt({ min: 200, max: 3840 }).optional().meta(d("Viewport width in CSS px; default 1280 (screen_width is an alias).")),
      viewport_height: formInt({ min: 200, max: 2160 }).default(800).meta(d("Viewport height in CSS px; default 800.")),
      full_page: formBool(false).meta(d("Capture the whole scrollable page (at most 16,384 px tall) instead of the viewport.")),
    })
    .superRefine(requireSource),
  response: z.object({
    success: z.boolean(),
    image: z.string().meta(d("The screenshot as data:image/png;base64,...")),
    width: z.number().int(),
    height: z.number().int(),
    source: z.enum(["file", "html", "url"]),
    processing_time_ms: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const { from, source } = await resolveSource(ctx.env, input);
    const load = {
      ...loadOptionsOf(input),
      emulatedMedia: input.emulated_media ?? "screen",
      screenWidth: input.viewport_width ?? input.screen_width,
      screenHeight: input.viewport_height,
    };
    const png = await screenshotPng(ctx.env, source, load, { fullPage: input.full_page });
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    return {
      body: {
        success: true,
        image: `data:image/png;base64,${toBase64(png)}`,
        // PNG IHDR: width and height are the first fields after the signature and chunk header.
        width: view.getUint32(16),
        height: view.getUint32(20),
        source: from,
        processing_time_ms: Math.round(performance.now() - started),
      },
    };
  },
});
