export interface FixtureOptions {
  pages: number;
  label?: string;
  /** Add an AcroForm text field with this name on page 1. */
  field?: string;
  /** Add a URI link annotation on page 1. */
  link?: string;
  /** Add internal links on page 1 to these 0-based pages. */
  internalLinks?: number[];
}

export interface PageSpec {
  size?: [number, number];
  rotate?: 0 | 90 | 180 | 270;
  /** pdf-lib crop box: x, y, width, height. */
  crop?: [number, number, number, number];
  lines?: string[];
  fontSize?: number;
}

export declare function makePdf(opts: FixtureOptions): Promise<Uint8Array>;
export declare function fixturePdf(pages: PageSpec[]): Promise<Uint8Array>;
export declare function plainPdf(pages: number, label?: string): Promise<Uint8Array>;
export declare function textPdf(pages: number): Promise<Uint8Array>;
export declare function withBookmarks(bytes: Uint8Array, marks: { title: string; page: number }[]): Promise<Uint8Array>;
export declare function annotatedPdf(): Promise<{ bytes: Uint8Array; fieldValue: string }>;
export declare function classicPdf(pages: number, label: string): Promise<Uint8Array>;
/** Every AcroForm field type (text with /MaxLen, multiline, checkbox, radio, combo, multi-select list, read-only), on two pages, as pdf-lib writes them. */
export declare function formPdf(): Promise<Uint8Array>;
export declare function corruptPdf(): Uint8Array;
export declare function bytesToLatin1(bytes: Uint8Array): string;
export declare function latin1ToBytes(text: string): Uint8Array;
export declare function encryptedPdf(source?: Uint8Array, passwords?: { user?: string; owner?: string }): Promise<Uint8Array>;
export declare function scannedPdf(pages: number, dpi?: number): Promise<Uint8Array>;
export declare function scanOf(source: Uint8Array, opts?: { dpi?: number; turn?: number; skew?: number; junk?: string[] }): Promise<Uint8Array>;
export declare function makeImage(format: "png" | "jpeg", w: number, h: number, rgbColor: [number, number, number], hole?: boolean): Promise<Uint8Array>;
export declare function richPdf(): Promise<{ bytes: Uint8Array; cells: string[][]; picture: [number, number] }>;

export type LayoutItem =
  | {
      text: string;
      x: number;
      y: number;
      size?: number;
      font?: "regular" | "bold" | "italic" | "mono" | "serif";
      invisible?: boolean;
      link?: string;
      rotate?: number;
    }
  | { rule: [number, number, number, number] }
  | { image: [number, number, number, number] };
export declare function layoutPdf(pages: LayoutItem[][]): Promise<Uint8Array>;
export declare function simpleDocx(): Promise<{ bytes: Uint8Array; lines: string[] }>;
export declare function docxOf(paragraphs: string[]): Promise<Uint8Array>;
export declare function concatPdfs(...parts: Uint8Array[]): Promise<Uint8Array>;
