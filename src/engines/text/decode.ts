/**
 * Decodes Unicode text whose encoding is sniffed from a BOM or, without one,
 * from where the zero bytes of the first characters fall (XMP packets and
 * plain-text uploads). XMP allows UTF-8, UTF-16 and UTF-32 in either byte
 * order (veraPDF's 6.7.9 files use all of them); TextDecoder has no UTF-32
 * and workerd no UTF-16BE, so code units are assembled here.
 */
export function decodeUnicodeText(bytes: Uint8Array): string {
  const b = bytes;
  const at = (i: number) => b[i] ?? -1;
  if (at(0) === 0 && at(1) === 0 && at(2) === 0xfe && at(3) === 0xff) return units(b, 4, 4, false);
  if (at(0) === 0xff && at(1) === 0xfe && at(2) === 0 && at(3) === 0) return units(b, 4, 4, true);
  if (at(0) === 0xfe && at(1) === 0xff) return units(b, 2, 2, false);
  if (at(0) === 0xff && at(1) === 0xfe) return units(b, 2, 2, true);
  if (at(0) === 0 && at(1) === 0 && at(2) === 0 && at(3) !== 0) return units(b, 0, 4, false);
  if (at(0) !== 0 && at(1) === 0 && at(2) === 0 && at(3) === 0) return units(b, 0, 4, true);
  if (at(0) === 0 && at(1) !== 0) return units(b, 0, 2, false);
  if (at(0) !== 0 && at(1) === 0) return units(b, 0, 2, true);
  return new TextDecoder("utf-8").decode(b).replace(/^\uFEFF/, "");
}

function units(b: Uint8Array, start: number, size: 2 | 4, little: boolean): string {
  const body = b.subarray(start, start + Math.floor((b.byteLength - start) / size) * size);
  if (size === 2) {
    // UTF-16BE becomes LE by swapping each pair, then TextDecoder does the rest.
    const le = little ? body : body.slice();
    if (!little) for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
    return new TextDecoder("utf-16le").decode(le);
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const parts: string[] = [];
  for (let i = 0; i < body.byteLength; i += 4) {
    const code = view.getUint32(i, little);
    parts.push(code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\uFFFD");
  }
  return parts.join("");
}
