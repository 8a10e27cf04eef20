export type Box = [number, number, number, number];
export interface BoxedWord {
  text: string;
  box: Box;
}
export declare const bare: (s: string) => string;
export declare const overlaps: (a: Box, b: Box) => boolean;
export declare function iou(a: Box, b: Box): number;
export declare function matchWords(source: BoxedWord[], ocr: BoxedWord[]): { found: number; placed: number; meanIou: number; missing: string[] };
