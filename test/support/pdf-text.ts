import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFStream, type PDFObject } from "pdf-lib";

// A text reader of our own over pdf-lib, so "the text is there" and "the
// text is gone" are not judged by the MuPDF the tools run on: page content
// streams (and the Form XObjects they draw) are decoded by pdf-lib, and the
// strings of every text-showing operator (Tj, TJ, ', ") are mapped to
// Unicode through the font's ToUnicode CMap or its simple encoding. Strings
// come out in content order, a line break between text objects; a font or a
// code it cannot map is an error, never a silent gap (a check that text is
// gone must not pass because the reader could not see it). Right-to-left
// scripts come out in drawing order, so those checks read with MuPDF.

/** Text of each page, in content order. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((o) => doc.context.lookup(o)) : contents ? [contents] : [];
    const data = concat(streams.map((s) => concat([streamBytes(s as PDFObject), new Uint8Array([10])])));
    const reader = new TextReader(doc);
    reader.run(data, page.node.Resources(), new Set());
    return reader.text();
  });
}

/** Whitespace-free text, so line breaks and spacing between runs do not matter. */
export const squash = (s: string): string => s.replace(/\s+/g, "");

/** A stream's bytes with its filters undone (pdf-lib's decoders); an image codec's data is left as stored. */
export function streamBytes(obj: PDFObject | undefined): Uint8Array {
  if (obj instanceof PDFRawStream) return decodePDFRawStream(obj).decode();
  if (obj instanceof PDFStream) return obj.getContents();
  throw new Error(`pdf-text: expected a stream, got ${obj?.constructor.name}`);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

// --- Content stream syntax -----------------------------------------------------

export type Operand = number | boolean | null | Uint8Array | { name: string } | Operand[] | { dict: Map<string, Operand> };

const WHITE = new Set([0, 9, 10, 12, 13, 32]);
const DELIM = new Set([..."()<>[]{}/%"].map((c) => c.charCodeAt(0)));

/** Calls `onOp(operator, operands)` for every operator of a content stream (or CMap). */
export function parseContent(b: Uint8Array, onOp: (op: string, args: Operand[]) => void): void {
  const stack: Operand[][] = [[]];
  let i = 0;
  const push = (v: Operand) => stack[stack.length - 1].push(v);
  while (i < b.length) {
    const c = b[i];
    if (WHITE.has(c)) i++;
    else if (c === 0x25) while (i < b.length && b[i] !== 10 && b[i] !== 13) i++;
    else if (c === 0x28) i = literal(b, i, push);
    else if (c === 0x3c && b[i + 1] === 0x3c) {
      stack.push([]);
      i += 2;
    } else if (c === 0x3e && b[i + 1] === 0x3e) {
      const items = stack.pop() ?? [];
      const dict = new Map<string, Operand>();
      for (let k = 0; k + 1 < items.length; k += 2) dict.set((items[k] as { name: string }).name, items[k + 1]);
      push({ dict });
      i += 2;
    } else if (c === 0x3c) {
      const end = b.indexOf(0x3e, i);
      const hex = String.fromCharCode(...b.subarray(i + 1, end)).replace(/\s/g, "");
      const bytes = new Uint8Array(Math.ceil(hex.length / 2));
      for (let k = 0; k < bytes.length; k++) bytes[k] = parseInt(`${hex.slice(2 * k, 2 * k + 2)}0`.slice(0, 2), 16);
      push(bytes);
      i = end + 1;
    } else if (c === 0x5b) {
      stack.push([]);
      i++;
    } else if (c === 0x5d) {
      const items = stack.pop() ?? [];
      push(items);
      i++;
    } else if (c === 0x2f) {
      let j = i + 1;
      while (j < b.length && !WHITE.has(b[j]) && !DELIM.has(b[j])) j++;
      push({ name: String.fromCharCode(...b.subarray(i + 1, j)).replace(/#([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) });
      i = j;
    } else {
      let j = i + 1;
      while (j < b.length && !WHITE.has(b[j]) && !DELIM.has(b[j])) j++;
      const word = String.fromCharCode(...b.subarray(i, j));
      i = j;
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) push(Number(word));
      else if (word === "true" || word === "false") push(word === "true");
      else if (word === "null") push(null);
      else if (stack.length > 1) push({ name: word });
      else {
        const args = stack[0];
        stack[0] = [];
        // Inline image data is binary: skip to the EI that ends it.
        if (word === "ID") i = inlineImageEnd(b, i + 1);
        onOp(word, args);
      }
    }
  }
}

function literal(b: Uint8Array, start: number, push: (v: Operand) => void): number {
  const out: number[] = [];
  let depth = 0;
  let i = start;
  for (; i < b.length; i++) {
    const c = b[i];
    if (c === 0x5c) {
      const n = b[++i];
      // \n \r \t \b \f
      const esc = new Map([
        [0x6e, 10],
        [0x72, 13],
        [0x74, 9],
        [0x62, 8],
        [0x66, 12],
      ]);
      const e = esc.get(n);
      if (e !== undefined) out.push(e);
      else if (n >= 0x30 && n <= 0x37) {
        let v = n - 0x30;
        for (let k = 0; k < 2 && b[i + 1] >= 0x30 && b[i + 1] <= 0x37; k++) v = v * 8 + (b[++i] - 0x30);
        out.push(v & 0xff);
      } else if (n === 13) {
        if (b[i + 1] === 10) i++;
      } else if (n !== 10) out.push(n);
    } else if (c === 0x28) {
      if (depth++ > 0) out.push(c);
    } else if (c === 0x29) {
      if (--depth === 0) break;
      out.push(c);
    } else out.push(c);
  }
  push(Uint8Array.from(out));
  return i + 1;
}

function inlineImageEnd(b: Uint8Array, from: number): number {
  for (let i = from; i + 1 < b.length; i++) {
    if (b[i] === 0x45 && b[i + 1] === 0x49 && WHITE.has(b[i - 1]) && (i + 2 >= b.length || WHITE.has(b[i + 2]))) return i + 2;
  }
  return b.length;
}

// --- Fonts -------------------------------------------------------------------------

interface Font {
  /** Splits a shown string into codes and maps each to text. */
  decode(bytes: Uint8Array): string;
}

class ToUnicode {
  readonly ranges: { length: number; lo: number; hi: number }[] = [];
  readonly map = new Map<string, string>();

  constructor(cmap: Uint8Array) {
    const key = (b: Uint8Array) => `${b.length}:${b.reduce((v, x) => v * 256 + x, 0)}`;
    const utf16 = (b: Uint8Array) => String.fromCharCode(...Array.from({ length: b.length >> 1 }, (_, k) => (b[2 * k] << 8) | b[2 * k + 1]));
    const asInt = (b: Uint8Array) => b.reduce((v, x) => v * 256 + x, 0);
    parseContent(cmap, (op, args) => {
      const pairs = (n: number) => Array.from({ length: Math.floor(args.length / n) }, (_, k) => args.slice(k * n, k * n + n));
      if (op === "endcodespacerange") {
        for (const [lo, hi] of pairs(2) as Uint8Array[][]) this.ranges.push({ length: lo.length, lo: asInt(lo), hi: asInt(hi) });
      } else if (op === "endbfchar") {
        for (const [src, dst] of pairs(2) as Uint8Array[][]) this.map.set(key(src), utf16(dst));
      } else if (op === "endbfrange") {
        for (const [lo, hi, dst] of pairs(3) as [Uint8Array, Uint8Array, Uint8Array | Uint8Array[]][]) {
          for (let code = asInt(lo), k = 0; code <= asInt(hi); code++, k++) {
            const src = new Uint8Array(lo.length);
            for (let v = code, p = lo.length - 1; p >= 0; p--, v = Math.floor(v / 256)) src[p] = v % 256;
            if (Array.isArray(dst)) {
              if (dst[k]) this.map.set(key(src), utf16(dst[k]));
            } else {
              const text = utf16(dst);
              this.map.set(key(src), text.slice(0, -1) + String.fromCharCode(text.charCodeAt(text.length - 1) + k));
            }
          }
        }
      }
    });
    this.ranges.sort((a, b) => a.length - b.length);
  }

  /** Length of the code starting at `at`: the codespace range it falls in. */
  codeLength(b: Uint8Array, at: number, fallback: number): number {
    for (const r of this.ranges) {
      if (at + r.length > b.length) continue;
      const v = b.subarray(at, at + r.length).reduce((x, y) => x * 256 + y, 0);
      if (v >= r.lo && v <= r.hi) return r.length;
    }
    return fallback;
  }

  lookup(code: Uint8Array): string | undefined {
    return this.map.get(`${code.length}:${code.reduce((v, x) => v * 256 + x, 0)}`);
  }
}

// WinAnsiEncoding 0x80-0x9F (the rest of 0x20-0xFF is Latin-1).
const WIN_ANSI_80 = "€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ";
const GLYPHS: Record<string, string> = {
  space: " ",
  exclam: "!",
  quotedbl: '"',
  numbersign: "#",
  dollar: "$",
  percent: "%",
  ampersand: "&",
  quotesingle: "'",
  quoteright: "’",
  parenleft: "(",
  parenright: ")",
  asterisk: "*",
  plus: "+",
  comma: ",",
  hyphen: "-",
  period: ".",
  slash: "/",
  colon: ":",
  semicolon: ";",
  less: "<",
  equal: "=",
  greater: ">",
  question: "?",
  at: "@",
  bracketleft: "[",
  backslash: "\\",
  bracketright: "]",
  asciicircum: "^",
  underscore: "_",
  grave: "`",
  quoteleft: "‘",
  braceleft: "{",
  bar: "|",
  braceright: "}",
  asciitilde: "~",
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  bullet: "•",
  endash: "–",
  emdash: "—",
};

function glyphText(name: string): string | undefined {
  if (/^[A-Za-z]$/.test(name)) return name;
  if (name in GLYPHS) return GLYPHS[name];
  const uni = /^uni([0-9A-F]{4})$/.exec(name) ?? /^u([0-9A-F]{4,6})$/.exec(name);
  return uni ? String.fromCodePoint(parseInt(uni[1], 16)) : undefined;
}

function simpleByte(encoding: string, code: number): string | undefined {
  if (code >= 0x20 && code < 0x7f) return String.fromCharCode(code);
  if (encoding === "WinAnsiEncoding" && code >= 0x80 && code < 0xa0) return WIN_ANSI_80[code - 0x80];
  if (encoding === "WinAnsiEncoding" && code >= 0xa0) return String.fromCharCode(code);
  return undefined;
}

function fontOf(doc: PDFDocument, dict: PDFDict): Font {
  const name = (k: string) => dict.lookupMaybe(PDFName.of(k), PDFName)?.decodeText();
  const toUnicodeStream = dict.lookup(PDFName.of("ToUnicode"));
  const toUnicode = toUnicodeStream instanceof PDFStream ? new ToUnicode(streamBytes(toUnicodeStream)) : undefined;
  const composite = name("Subtype") === "Type0";
  const fontName = name("BaseFont") ?? "?";
  if (composite && !toUnicode) throw new Error(`pdf-text: composite font ${fontName} has no ToUnicode map`);
  const encoding = dict.lookup(PDFName.of("Encoding"));
  const differences = new Map<number, string>();
  let base = encoding instanceof PDFName ? encoding.decodeText() : "StandardEncoding";
  if (encoding instanceof PDFDict) {
    base = encoding.lookupMaybe(PDFName.of("BaseEncoding"), PDFName)?.decodeText() ?? base;
    let code = 0;
    for (const item of encoding.lookupMaybe(PDFName.of("Differences"), PDFArray)?.asArray() ?? []) {
      const v = doc.context.lookup(item);
      if (v instanceof PDFName) differences.set(code++, v.decodeText());
      else code = Number(v?.toString());
    }
  }
  return {
    decode(bytes) {
      let out = "";
      for (let at = 0; at < bytes.length; ) {
        const n = toUnicode?.codeLength(bytes, at, composite ? 2 : 1) ?? 1;
        const code = bytes.subarray(at, at + n);
        at += n;
        const diff = differences.get(code[0]);
        const text = toUnicode?.lookup(code) ?? (composite ? undefined : diff !== undefined ? glyphText(diff) : simpleByte(base, code[0]));
        if (text === undefined) throw new Error(`pdf-text: font ${fontName} has no text for code ${Array.from(code).join(",")}`);
        out += text;
      }
      return out;
    },
  };
}

// --- Reading --------------------------------------------------------------------------

class TextReader {
  private readonly lines: string[] = [""];
  private readonly fonts = new Map<PDFDict, Font>();

  constructor(private readonly doc: PDFDocument) {}

  text(): string {
    return this.lines.join("\n");
  }

  private newLine(): void {
    if (this.lines[this.lines.length - 1] !== "") this.lines.push("");
  }

  private show(font: Font | undefined, s: Uint8Array): void {
    if (!font) throw new Error("pdf-text: text shown before any font was set");
    this.lines[this.lines.length - 1] += font.decode(s);
  }

  run(content: Uint8Array, resources: PDFDict | undefined, drawing: Set<PDFObject>): void {
    const lookup = (group: string, key: string) => {
      const dict = resources?.lookupMaybe(PDFName.of(group), PDFDict);
      return dict?.lookup(PDFName.of(key));
    };
    let font: Font | undefined;
    parseContent(content, (op, args) => {
      switch (op) {
        case "BT":
        case "T*":
          this.newLine();
          break;
        case "Tf": {
          const dict = lookup("Font", (args[0] as { name: string }).name);
          if (!(dict instanceof PDFDict)) throw new Error(`pdf-text: no font ${JSON.stringify(args[0])}`);
          if (!this.fonts.has(dict)) this.fonts.set(dict, fontOf(this.doc, dict));
          font = this.fonts.get(dict);
          break;
        }
        case "'":
        case '"':
          this.newLine();
          this.show(font, args[args.length - 1] as Uint8Array);
          break;
        case "Tj":
          this.show(font, args[0] as Uint8Array);
          break;
        case "TJ":
          for (const item of args[0] as Operand[]) {
            // A gap wider than a quarter of the font size reads as a space.
            if (typeof item === "number") this.lines[this.lines.length - 1] += item < -250 ? " " : "";
            else this.show(font, item as Uint8Array);
          }
          break;
        case "Do": {
          const xobject = lookup("XObject", (args[0] as { name: string }).name);
          if (!(xobject instanceof PDFRawStream) || drawing.has(xobject)) break;
          if (xobject.dict.lookupMaybe(PDFName.of("Subtype"), PDFName)?.decodeText() !== "Form") break;
          drawing.add(xobject);
          this.run(streamBytes(xobject), xobject.dict.lookupMaybe(PDFName.of("Resources"), PDFDict) ?? resources, drawing);
          drawing.delete(xobject);
          break;
        }
      }
    });
  }
}
