import type { GrayImage } from "../quality/ssim";

// What the main Worker and the OCR Worker say to each other over the OCR
// service binding: a page as raw 8-bit grey pixels with its size in headers
// (no encoding step on either side), the recognised words back as JSON.

export const OCR_PROTOCOL = {
  recognize: "/recognize",
  runtime: "/runtime",
  /** Any origin will do: a service binding routes by binding, not by host. */
  origin: "https://ocr.internal",
} as const;

export function grayRequest(gray: GrayImage): Request {
  return new Request(`${OCR_PROTOCOL.origin}${OCR_PROTOCOL.recognize}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream", "x-width": String(gray.width), "x-height": String(gray.height) },
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
