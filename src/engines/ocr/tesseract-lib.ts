// The Embind surface of tesseract-wasm's core (its lib.cpp), as far as we use it.

interface StdVector<T> {
  size(): number;
  get(i: number): T;
  delete(): void;
}

export interface TessRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface TessTextItem {
  rect: TessRect;
  /** StartOfLine = 1, EndOfLine = 2. */
  flags: number;
  /** 0..1 */
  confidence: number;
  text: string;
}

export interface TessEngine {
  loadModel(model: Uint8Array): { error?: string };
  loadImage(image: TessImage): { error?: string };
  clearImage(): void;
  setVariable(name: string, value: string): { error?: string };
  getTextBoxes(unit: unknown, onProgress: (progress: number) => void): StdVector<TessTextItem>;
  getOrientation(): { rotation: number; confidence: number };
  delete(): void;
}

export interface TessImage {
  /** The image's RGBA pixels inside the WASM heap, one 32-bit word a pixel. */
  data(): Uint32Array;
  delete(): void;
}

export interface TesseractLib {
  OCREngine: new () => TessEngine;
  Image: new (width: number, height: number) => TessImage;
  TextUnit: { Word: unknown; Line: unknown };
}

export const START_OF_LINE = 1;

export function arrayOf<T>(vec: StdVector<T>): T[] {
  const out: T[] = [];
  try {
    for (let i = 0; i < vec.size(); i++) out.push(vec.get(i));
  } finally {
    vec.delete();
  }
  return out;
}
