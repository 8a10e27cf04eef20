import { env } from "cloudflare:workers";
import deuModel from "../../../wasm/deu.traineddata.bin";
import engModel from "../../../wasm/eng.traineddata.bin";
import fraModel from "../../../wasm/fra.traineddata.bin";
import itaModel from "../../../wasm/ita.traineddata.bin";
import porModel from "../../../wasm/por.traineddata.bin";
import { modelKey, OCR_LANGUAGES, type OcrLanguage } from "./languages";

// The OCR Worker's side of languages.ts: a model's bytes, from the bundle or
// from the OCR_MODELS bucket. Models read from R2 are kept in a small LRU of
// bytes (the Tesseract instance itself is one at a time, engine.ts), so a
// run of calls in one language reads R2 once.

const BUNDLED: Partial<Record<OcrLanguage, ArrayBuffer>> = { eng: engModel, deu: deuModel, fra: fraModel, ita: itaModel, por: porModel };

/** Bytes of R2 models kept in the isolate: the two largest (nld 6.1 MB, spa 3.4 MB) fit. */
export const MODEL_CACHE_BYTES = 10 * 1024 * 1024;

export interface ModelsEnv {
  OCR_MODELS?: R2Bucket;
}

/** A model that is neither bundled nor seeded: the OCR Worker answers 503 model_missing. */
export class ModelMissing extends Error {
  constructor(readonly language: OcrLanguage) {
    super(`The ${OCR_LANGUAGES[language].name} OCR model is not in the OCR_MODELS bucket (run scripts/ocr-models-seed.mjs).`);
  }
}

const cache = new Map<OcrLanguage, ArrayBuffer>();
const stats = { r2Reads: 0 };

/** A model's bytes; `bucket` is the OCR Worker's OCR_MODELS unless a test hands another. */
export async function modelBytes(lang: OcrLanguage, bucket: R2Bucket | undefined = (env as ModelsEnv).OCR_MODELS): Promise<ArrayBuffer> {
  const bundled = BUNDLED[lang];
  if (bundled) return bundled;
  const hit = cache.get(lang);
  if (hit) {
    cache.delete(lang);
    cache.set(lang, hit);
    return hit;
  }
  const object = await bucket?.get(modelKey(lang));
  if (!object) throw new ModelMissing(lang);
  const bytes = await object.arrayBuffer();
  stats.r2Reads++;
  cache.set(lang, bytes);
  let held = [...cache.values()].reduce((n, b) => n + b.byteLength, 0);
  for (const [key, value] of cache) {
    if (held <= MODEL_CACHE_BYTES || key === lang) break;
    cache.delete(key);
    held -= value.byteLength;
  }
  return bytes;
}

/** What the model cache holds (GET /runtime). */
export function modelCacheStats() {
  return { cached: [...cache.keys()], cached_bytes: [...cache.values()].reduce((n, b) => n + b.byteLength, 0), r2_reads: stats.r2Reads };
}
