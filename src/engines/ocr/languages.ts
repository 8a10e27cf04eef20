// The OCR languages, one table both Workers read: the main Worker validates a
// call's languages against it before any work (a 422 names these codes), the
// OCR Worker finds each model where this says it lives (models.ts).

/**
 * Where a model lives. `bundle`: a Data module of the OCR Worker (resident
 * with the code, no I/O). `r2`: the OCR_MODELS bucket, seeded from
 * node_modules by scripts/ocr-models-seed.mjs at deploy, because all seven
 * models in the bundle would be 13.8 MB gzip, past the 10 MB limit
 * (docs/reference/pdf-ocr.md, Models).
 */
export type ModelHome = "bundle" | "r2";

export const OCR_LANGUAGES = {
  eng: { name: "English", home: "bundle" },
  deu: { name: "German", home: "bundle" },
  fra: { name: "French", home: "bundle" },
  ita: { name: "Italian", home: "bundle" },
  por: { name: "Portuguese", home: "bundle" },
  spa: { name: "Spanish", home: "r2" },
  nld: { name: "Dutch", home: "r2" },
} as const satisfies Record<string, { name: string; home: ModelHome }>;

export type OcrLanguage = keyof typeof OCR_LANGUAGES;
export const OCR_LANGUAGE_CODES = Object.keys(OCR_LANGUAGES) as OcrLanguage[];
export const DEFAULT_OCR_LANGUAGE: OcrLanguage = "eng";
/** Each language is a reading of the whole page (Tesseract takes one model per instance here): more would multiply the time. */
export const MAX_OCR_LANGUAGES = 3;

export const isOcrLanguage = (code: string): code is OcrLanguage => Object.hasOwn(OCR_LANGUAGES, code);

/** The R2 key of a model in OCR_MODELS. */
export const modelKey = (lang: OcrLanguage): string => `tessdata/4.0.0_best_int/${lang}.traineddata`;
