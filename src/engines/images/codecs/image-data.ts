// jSquash's Emscripten decoders build their result with `new ImageData(...)`
// looked up on the global object, which workerd does not provide. A minimal
// stand-in with the same constructor shape is enough for them.
class ImageDataShim {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  readonly colorSpace = "srgb";

  constructor(dataOrWidth: Uint8ClampedArray | number, widthOrHeight: number, height?: number) {
    if (typeof dataOrWidth === "number") {
      this.width = dataOrWidth;
      this.height = widthOrHeight;
      this.data = new Uint8ClampedArray(dataOrWidth * widthOrHeight * 4);
    } else {
      this.data = dataOrWidth;
      this.width = widthOrHeight;
      this.height = height ?? dataOrWidth.length / 4 / widthOrHeight;
    }
  }
}

export function ensureImageData(): void {
  const g = globalThis as { ImageData?: unknown };
  if (typeof g.ImageData !== "function") g.ImageData = ImageDataShim;
}
