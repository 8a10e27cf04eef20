/** Bundles the OCR Worker into .wrangler/ocr-worker and answers miniflare's module list for it. */
export function buildOcrWorker(): { type: "ESModule" | "CompiledWasm" | "Data"; path: string }[];
