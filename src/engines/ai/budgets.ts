// Every size an AI call may reach, in one table (docs/tools/ai.md, Budgets).
// Tokens are estimated as characters / 4, the usual ratio for English with
// Llama tokenizers; the budgets keep well inside an 8k-token context so the
// smallest default models and local servers both fit.

export const AI_BUDGETS = {
  /** Per attempt; AI_TIMEOUT_MS overrides it. */
  timeoutMs: 60_000,
  /** Pause before the single retry after a 429, a 5xx or a network failure. */
  retryBackoffMs: 500,
  /** Bytes of an HTTP answer read at most; a longer answer is a failure, never buffered whole. */
  maxResponseBytes: 1024 * 1024,
  /** Characters of model text kept at most (answers are cut here before parsing). */
  maxAnswerChars: 64_000,
  /** Input characters of one LLM cleanup chunk (about 1,500 tokens). */
  cleanupChunkChars: 6_000,
  /** Chunks one cleanup call sends at most; the Markdown beyond is answered as it was. */
  cleanupMaxChunks: 12,
  /** Output tokens per cleanup chunk: room for the chunk back, with some growth. */
  cleanupMaxTokens: 2_500,
  /** Document text sent to AI extract at most (about 6,000 tokens); the rest is cut, the prompt says so. */
  extractTextChars: 24_000,
  /** Scanned pages OCR reads for AI extract's text path (a PDF without a text layer): the first ones, where invoices, receipts and résumés keep their fields. */
  extractOcrPages: 5,
  extractMaxTokens: 2_000,
  /** Pages a vision call looks at: AI extract's whole window (first 3 pages or fewer), and per call for Markdown, Excel and DOCX. */
  visionPagesPerCall: 3,
  /** Pages the vision engine reads for Markdown, Excel and DOCX; later pages come from the deterministic engine. */
  visionMaxPages: 12,
  visionMaxTokens: 4_000,
  /** Render resolution of page images: readable print for a vision model, 1275 x 1650 px for US Letter. */
  visionDpi: 150,
  /** Pixels of one page image at most (larger pages are drawn smaller): 2 MP keeps a JPEG near 300 KB. */
  visionMaxPixels: 2_000_000,
  /** JPEG quality of page images. */
  visionJpegQuality: 80,
} as const;
