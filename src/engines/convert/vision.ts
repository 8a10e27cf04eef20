import { visionDocxOfPdf } from "../ai/vision-docx";

// engine=vision for PDF to DOCX. Whether a vision model is configured is
// decided in one place for every tool (engines/layout/seams.ts, decisions.md
// "AI and OCR"); with none, a vision request is a 422 and is refunded
// (api.md).

export { visionModelConfigured as visionConfigured } from "../layout/seams";

/** What `engine_used` answers when the vision road ran. */
export const VISION_ENGINE = "vision-docx";

/**
 * Vision PDF to DOCX ("vision-docx"): page images to a vision model, its
 * Markdown per page into the page plans ./pdf-docx writes. Null when the
 * model found nothing: the tool falls back to the deterministic converter.
 */
export const visionPdfToDocx = visionDocxOfPdf;
