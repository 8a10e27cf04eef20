import { expect } from "vitest";
import { accountWithKey } from "../../support/accounts";
import { file, postForm, withKey } from "../../support/http";
import type { Answer } from "../../support/answers";

export const PATH = "/api/v1/pdf/to-markdown";

export type MarkdownBody = Answer<"pdf-to-markdown">;

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
