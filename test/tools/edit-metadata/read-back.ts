import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from "pdf-lib";
import { expect } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { postForm, problem, withKey, type form } from "../../support/http";
import { withMupdf } from "../../support/mupdf";
import { streamBytes } from "../../support/pdf-text";

// Readers of an output's metadata that share no code with the writer:
// pdf-lib for the Info dictionary, /Lang and the raw XMP packet, the
// test-only MuPDF for what a second PDF library reads, and a few regexes
// over the packet for its properties (each must occur exactly once).

export interface PdfMetadata {
  info: Record<string, string>;
  lang: string | null;
  xmp: string | null;
}

const decoded = (o: unknown): string | null => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null);

export async function pdfLibMetadata(bytes: Uint8Array): Promise<PdfMetadata> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const info: Record<string, string> = {};
  const dict = doc.context.lookupMaybe(doc.context.trailerInfo.Info, PDFDict);
  for (const [key, value] of dict?.entries() ?? []) {
    const text = decoded(doc.context.lookup(value));
    if (text !== null) info[key.decodeText()] = text;
  }
  const lang = decoded(doc.catalog.get(PDFName.of("Lang")));
  const md = doc.catalog.get(PDFName.of("Metadata"));
  const xmp = md ? new TextDecoder().decode(streamBytes(doc.context.lookup(md))) : null;
  return { info, lang, xmp };
}

/** Info values as MuPDF reads them (its own string decoding). */
export function mupdfInfo(bytes: Uint8Array, keys: string[]): Promise<Record<string, string | undefined>> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    try {
      return Object.fromEntries(keys.map((k) => [k, doc.getMetaData(`info:${k}`) || undefined]));
    } finally {
      doc.destroy();
    }
  });
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** Occurrences of `qname` in the packet, as element or attribute. */
export function occurrences(xmp: string, qname: string): number {
  const el = xmp.match(new RegExp(`<${qname}[\\s>/]`, "g"))?.length ?? 0;
  const attr = xmp.match(new RegExp(`\\s${qname}\\s*=`, "g"))?.length ?? 0;
  return el + attr;
}

/** The value(s) of a property: a simple value, or the rdf:li items of an Alt, Seq or Bag. */
export function xmpValues(xmp: string, qname: string): string[] | null {
  const m = new RegExp(`<${qname}(?:\\s[^>]*)?>([\\s\\S]*?)</${qname}>`).exec(xmp);
  if (!m) return null;
  const items = [...m[1].matchAll(/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/g)].map((x) => unescapeXml(x[1]));
  return items.length ? items : [unescapeXml(m[1].trim())];
}

type Fields = Parameters<typeof form>[0];

/** A failing call made with a key: its status and code, nothing charged, the balance unchanged. */
export async function expectRefused(path: string, fields: Fields, status: number, code: string): Promise<string> {
  const acct = await accountWithKey({ credits: 100 });
  const before = await balanceOf(acct.token);
  const res = await postForm(path, fields, withKey(acct.key));
  expect(res.status).toBe(status);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  const body = await problem(res);
  expect(body.code).toBe(code);
  expect(await balanceOf(acct.token)).toBe(before);
  return body.detail;
}
