// A small reader for XMP packets (ISO 16684-1) as PDFs embed them: enough to
// read simple properties in attribute or element form, rdf:Seq/Bag/Alt lists
// and namespace declarations. No DOM parser exists in Workers, and PDF/A
// validation and metadata only need these few shapes.

import { decodeUnicodeText } from "./decode";

export interface XmpPacket {
  text: string;
  /** URI bound to a prefix anywhere in the packet, or null. */
  namespace(prefix: string): string | null;
  /** Values of `prefix:name`: one for a simple property, the items of an rdf list; null when absent. */
  values(prefix: string, name: string): string[] | null;
  /** A language alternative's x-default (or first) item, or a simple value. */
  text1(prefix: string, name: string): string | null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function elementValues(text: string, qname: string): string[] | null {
  const re = new RegExp(`<${escapeRe(qname)}(\\s[^>]*)?(/>|>([\\s\\S]*?)</${escapeRe(qname)}\\s*>)`);
  const m = re.exec(text);
  if (!m) return null;
  const inner = m[3] ?? "";
  if (/<rdf:li[\s>/]/.test(inner)) {
    const items: string[] = [];
    const li = /<rdf:li(\s[^>]*)?(?:\/>|>([\s\S]*?)<\/rdf:li\s*>)/g;
    for (let x = li.exec(inner); x; x = li.exec(inner)) {
      const lang = /xml:lang\s*=\s*["']([^"']*)["']/.exec(x[1] ?? "")?.[1];
      const value = decodeEntities((x[2] ?? "").replace(/<[^>]*>/g, "").trim());
      if (lang === "x-default") items.unshift(value);
      else items.push(value);
    }
    return items;
  }
  const resource = /rdf:resource\s*=\s*["']([^"']*)["']/.exec(m[1] ?? "")?.[1];
  if (resource !== undefined) return [decodeEntities(resource)];
  return [decodeEntities(inner.replace(/<[^>]*>/g, "").trim())];
}

function attributeValue(text: string, qname: string): string[] | null {
  const re = new RegExp(`<[^<>]*\\s${escapeRe(qname)}\\s*=\\s*("([^"]*)"|'([^']*)')`);
  const m = re.exec(text);
  return m ? [decodeEntities(m[2] ?? m[3] ?? "")] : null;
}

export function parseXmp(bytes: Uint8Array): XmpPacket {
  const text = decodeUnicodeText(bytes);
  const namespaces = new Map<string, string>();
  const ns = /xmlns:([\w.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = ns.exec(text); m; m = ns.exec(text)) if (!namespaces.has(m[1])) namespaces.set(m[1], m[3] ?? m[4] ?? "");
  const values = (prefix: string, name: string) => {
    const qname = `${prefix}:${name}`;
    return attributeValue(text, qname) ?? elementValues(text, qname);
  };
  return {
    text,
    namespace: (prefix) => namespaces.get(prefix) ?? null,
    values,
    text1: (prefix, name) => values(prefix, name)?.[0] ?? null,
  };
}
