// Hand-written PDFs for Repair PDF tests: damage that pdf-lib and MuPDF never
// write (a cross-reference stream without an entry for itself, image streams
// whose data does not decode), laid out byte by byte so the offsets are right.

const enc = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

/** An object body with a stream: dictionary entries (without << >>) and the raw data as latin1. */
export const streamObject = (dict: string, data: string) => `<<${dict}/Length ${data.length}>>\nstream\n${data}\nendstream`;

const be = (n: number, width: number) => {
  let s = "";
  for (let i = width - 1; i >= 0; i--) s += String.fromCharCode(Math.floor(n / 256 ** i) % 256);
  return s;
};

/**
 * A PDF of `bodies` (object i+1 is bodies[i]), catalog at 1. With
 * `xref: "stream"` the cross-reference is a PDF 1.5 stream (uncompressed,
 * W [1 4 2]); `selfEntry: false` leaves the stream's own object number out
 * of its /Index, the damage some writers produce.
 */
export function handPdf(bodies: string[], { xref = "table", selfEntry = true }: { xref?: "table" | "stream"; selfEntry?: boolean } = {}): Uint8Array {
  let out = `%PDF-1.5\n%\xe2\xe3\xcf\xd3\n`;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const size = bodies.length + 1;
  if (xref === "table") {
    const start = out.length;
    out += `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
    out += `trailer\n<</Size ${size}/Root 1 0 R>>\nstartxref\n${start}\n%%EOF\n`;
    return enc(out);
  }
  const streamNum = size;
  const start = out.length;
  let rows = be(0, 1) + be(0, 4) + be(65535, 2);
  for (const off of offsets) rows += be(1, 1) + be(off, 4) + be(0, 2);
  if (selfEntry) rows += be(1, 1) + be(start, 4) + be(0, 2);
  const entries = selfEntry ? size + 1 : size;
  out += `${streamNum} 0 obj\n${streamObject(`/Type/XRef/Size ${entries}/W[1 4 2]/Index[0 ${entries}]/Root 1 0 R`, rows)}\nendobj\n`;
  out += `startxref\n${start}\n%%EOF\n`;
  return enc(out);
}

const FONT = "/Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>";

/** One page of text, as an xref-stream file whose stream lacks its own entry. */
export function xrefStreamWithoutSelfEntry(text: string): Uint8Array {
  const content = `BT /F1 24 Tf 20 100 Td (${text}) Tj ET`;
  return handPdf(
    [
      "<</Type/Catalog/Pages 2 0 R>>",
      "<</Type/Pages/Kids[3 0 R]/Count 1>>",
      `<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<<${FONT}>>>>`,
      streamObject("", content),
    ],
    { xref: "stream", selfEntry: false },
  );
}

/**
 * One page with a caption and two images whose data does not decode: a Flate
 * image of random bytes, and a JPEG wrapped in a Flate layer that is cut off.
 */
export function pageWithCorruptImages(text: string): Uint8Array {
  const content = `q 100 0 0 80 20 20 cm /Im1 Do Q q 100 0 0 80 160 20 cm /Im2 Do Q BT /F1 18 Tf 20 160 Td (${text}) Tj ET`;
  const noise = `x\x9c\xff${"\xfe\xfd not deflate ".repeat(3)}`;
  const cutFlate = "x\x9c\xed\xc1\x01\r\x00\x00\x00\xc2\xa0\xf7Om\x0e";
  return handPdf([
    "<</Type/Catalog/Pages 2 0 R>>",
    "<</Type/Pages/Kids[3 0 R]/Count 1>>",
    `<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<<${FONT}/XObject<</Im1 5 0 R/Im2 6 0 R>>>>>>`,
    streamObject("", content),
    streamObject("/Type/XObject/Subtype/Image/Width 10/Height 8/ColorSpace/DeviceRGB/BitsPerComponent 8/Filter/FlateDecode", noise),
    streamObject("/Type/XObject/Subtype/Image/Width 10/Height 8/ColorSpace/DeviceRGB/BitsPerComponent 8/Filter[/FlateDecode/DCTDecode]", cutFlate),
  ]);
}
