import { PDFDocument, PDFName } from "pdf-lib";
import { expect } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { download, postForm, problem, withKey } from "../../support/http";
import type { Answer } from "../../support/answers";

export const TO_PDF = "/api/v1/html/to-pdf";
export const PREVIEW = "/api/v1/html/preview";

export type ToPdfBody = Answer<"html-to-pdf">;

type Fields = Parameters<typeof postForm>[1];

/** A fresh account with a key: every test its own, so balances do not couple. */
export const caller = () => accountWithKey({ credits: 1000 });

export const keyHeaders = (acc: { key: string }) => withKey(acc.key);

/** Posts to HTML to PDF, expects 200, and returns the body and the downloaded PDF. */
export async function toPdf(fields: Fields, key?: string): Promise<{ body: ToPdfBody; pdf: Uint8Array; doc: PDFDocument }> {
  const res = await postForm(TO_PDF, fields, withKey(key ?? (await caller()).key));
  if (res.status !== 200) throw new Error(`to-pdf ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as ToPdfBody;
  const pdf = await download(body.url);
  return { body, pdf, doc: await PDFDocument.load(pdf, { updateMetadata: false }) };
}

/** Asserts a refused call: status, code, X-Credits-Charged 0 and the balance untouched. */
export async function expectRefused(path: string, fields: Fields, status: number, code: string) {
  const acc = await caller();
  const before = await balanceOf(acc.token);
  const res = await postForm(path, fields, withKey(acc.key));
  const body = await problem(res);
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  expect(await balanceOf(acc.token)).toBe(before);
  return { res, body };
}

/** Page size in PDF points. */
export function pageSize(doc: PDFDocument, i = 0): [number, number] {
  const { width, height } = doc.getPage(i).getSize();
  return [width, height];
}

/** Chromium rounds paper sizes to whole CSS pixels (0.75 pt): compare within 1.5 pt. */
export function expectPageSize(doc: PDFDocument, i: number, [w, h]: [number, number]) {
  const [width, height] = pageSize(doc, i);
  expect(Math.abs(width - w), `width ${width} vs ${w}`).toBeLessThan(1.5);
  expect(Math.abs(height - h), `height ${height} vs ${h}`).toBeLessThan(1.5);
}

export const mm = (v: number) => (v * 72) / 25.4;
export const inch = (v: number) => v * 72;

export function catalogHas(doc: PDFDocument, key: string): boolean {
  return doc.catalog.get(PDFName.of(key)) !== undefined;
}

/** Some filler paragraphs: `n` of them make several pages. */
export const paragraphs = (n: number, word = "Lorem") =>
  Array.from({ length: n }, (_, i) => `<p>${word} paragraph ${i + 1} ${"ipsum dolor sit amet ".repeat(20)}</p>`).join("");
