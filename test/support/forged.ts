/** A valid PNG signature and IHDR announcing width x height, with no pixel data behind it. */
export function pngHeaderOnly(width: number, height: number, opts: { interlaced?: boolean } = {}): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, opts.interlaced ? 1 : 0], 24);
  return bytes;
}
