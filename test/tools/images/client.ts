import { expect } from "vitest";
import { download, postForm, problem, withKey, type AuthHeaders } from "../../support/http";

export interface ImageMeta {
  original_size?: number;
  output_size: number;
  format: string;
  width: number;
  height: number;
  original_dimensions?: string;
  processing_time_ms: number;
  notes?: string[];
}

export interface ImageOk {
  status: number;
  credits: string | null;
  meta: ImageMeta;
  url: string;
  credits_charged: number;
  bytes: Uint8Array;
}

type Fields = Parameters<typeof postForm>[1];

/** Posts to an image tool, expects 200 and downloads the output. */
export async function ok(path: string, fields: Fields, auth: AuthHeaders = {}): Promise<ImageOk> {
  const res = await postForm(path, fields, auth);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text) as { success: boolean; url: string; meta: ImageMeta; credits_charged: number };
  expect(body.success).toBe(true);
  const bytes = await download(body.url);
  expect(body.meta.output_size).toBe(bytes.length);
  return { status: res.status, credits: res.headers.get("X-Credits-Charged"), meta: body.meta, url: body.url, credits_charged: body.credits_charged, bytes };
}

/** Posts and expects a problem+json with `status`; answers its code. */
export async function fails(path: string, fields: Fields, status: number, auth: AuthHeaders = {}): Promise<string> {
  const res = await postForm(path, fields, auth);
  const body = await problem(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  return body.code;
}

export { withKey };
