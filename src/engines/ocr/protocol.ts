import type { GrayImage } from "../quality/ssim";
import { DEFAULT_OCR_LANGUAGE, isOcrLanguage, type OcrLanguage } from "./languages";

// What the main Worker and the OCR Worker say to each other over the OCR
// service binding: a page as raw 8-bit grey pixels with its size in headers
// (no encoding step on either side), the recognised words back as JSON.
// `x-languages` (comma-separated codes of languages.ts) chooses the models;
// without it the page is read in English, as before the header existed.

export const OCR_PROTOCOL = {
  recognize: "/recognize",
  runtime: "/runtime",
  /** Any origin will do: a service binding routes by binding, not by host. */
  origin: "https://ocr.internal",
} as const;

export const LANGUAGES_HEADER = "x-languages";

export function grayRequest(gray: GrayImage, languages?: readonly OcrLanguage[]): Request {
  const headers: Record<string, string> = { "content-type": "application/octet-stream", "x-width": String(gray.width), "x-height": String(gray.height) };
  if (languages?.length) headers[LANGUAGES_HEADER] = languages.join(",");
  return new Request(`${OCR_PROTOCOL.origin}${OCR_PROTOCOL.recognize}`, {
    method: "POST",
    headers,
    body: gray.data,
  });
}

/** The grey page of a recognise request, or null when its size and bytes disagree. */
export async function readGrayRequest(request: Request): Promise<GrayImage | null> {
  const width = Number(request.headers.get("x-width"));
  const height = Number(request.headers.get("x-height"));
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return null;
  const data = new Uint8Array(await request.arrayBuffer());
  return data.byteLength === width * height ? { data, width, height } : null;
}

/** The languages a recognise request asks for (English when it names none), or null when it names one we do not have. */
export function readLanguages(request: Request): OcrLanguage[] | null {
  const raw = request.headers.get(LANGUAGES_HEADER);
  if (raw === null || !raw.trim()) return [DEFAULT_OCR_LANGUAGE];
  const codes = [...new Set(raw.split(",").map((c) => c.trim()))];
  return codes.every(isOcrLanguage) ? codes : null;
}
