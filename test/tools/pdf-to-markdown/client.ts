import { expect } from "vitest";
import { accountWithKey } from "../../support/accounts";
import { file, postForm, withKey } from "../../support/http";

export const PATH = "/api/v1/pdf/to-markdown";

export interface MarkdownBody {
  success: boolean;
  markdown: string;
  engine: string;
  pages: number;
  word_count: number;
  headings: number;
  pages_without_text: number[];
  credits_charged: number;
}

let key: string | undefined;
export async function auth(): Promise<Record<string, string>> {
  key ??= (await accountWithKey({ credits: 1_000_000 })).key;
  return withKey(key);
}

/** Converts and expects a 200; answers the parsed body. */
export async function toMarkdown(pdf: Uint8Array, fields: Record<string, string> = {}): Promise<MarkdownBody> {
  const res = await postForm(PATH, { file: file(pdf, "doc.pdf"), ...fields }, await auth());
  const body = (await res.json()) as MarkdownBody;
  expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
  return body;
}
