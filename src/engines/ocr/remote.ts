import { env } from "cloudflare:workers";
import type { Env } from "../../env";
import { ApiError } from "../../errors";
import type { GrayImage } from "../quality/ssim";
import { type OcrCallerEnv, withCallerSecret } from "./caller";
import type { OcrLanguage } from "./languages";
import { grayRequest, OCR_PROTOCOL } from "./protocol";
import type { OcrImageResult } from "./recognize";

// The main Worker's side of OCR: pages go to the OCR Worker through the OCR
// service binding (src/ocr-worker.ts). Tesseract and its model are never in
// this bundle.

function ocrBinding(): Fetcher {
  const binding = (env as Env).OCR;
  if (!binding) throw new ApiError("ocr_unavailable", "This deployment has no OCR Worker bound (OCR in wrangler.toml); nothing was charged.");
  return binding;
}

/** Recognises an 8-bit grey page in the OCR Worker: upright turn, words with boxes and confidence. */
export async function recognizeRemote(gray: GrayImage, languages?: readonly OcrLanguage[]): Promise<OcrImageResult> {
  const answer = await ocrBinding().fetch(withCallerSecret(grayRequest(gray, languages), env as OcrCallerEnv));
  if (!answer.ok) {
    const text = await answer.text();
    if (answer.status === 503 && text.includes('"model_missing"')) {
      const detail = (JSON.parse(text) as { detail?: string }).detail ?? "An OCR model is missing.";
      throw new ApiError("ocr_unavailable", `${detail} Nothing was charged.`);
    }
    throw new Error(`The OCR Worker answered ${answer.status}: ${text.slice(0, 200)}`);
  }
  return (await answer.json()) as OcrImageResult;
}

/** The OCR Worker's own heap report, for GET /admin/v1/runtime; null when it is not bound or does not answer. */
export async function ocrWorkerRuntime(): Promise<Record<string, unknown> | null> {
  const binding = (env as Env).OCR;
  if (!binding) return null;
  try {
    const answer = await binding.fetch(withCallerSecret(new Request(`${OCR_PROTOCOL.origin}${OCR_PROTOCOL.runtime}`), env as OcrCallerEnv));
    return answer.ok ? ((await answer.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
