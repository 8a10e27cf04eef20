// ZIPs that lie about their sizes, for the bounded reader's tests (zip.test.ts, tools/convert/docx-bombs.test.ts).

/** A copy of `zip` whose central directory (and local header) declare `size` for its first entry. */
export function lyingZip(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = out.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      view.setUint32(view.getUint32(i + 16, true) + 24, size, true);
      break;
    }
  }
  view.setUint32(22, size, true);
  return out;
}
