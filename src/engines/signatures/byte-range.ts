import { buildCadesDetached } from "./cms-build";
import { latin1 } from "./incremental";
import type { Signer } from "./pkcs12";

// The signature's placeholders and their filling: a /ByteRange of fixed
// width and a /Contents hex string of fixed size, so writing the real values
// moves no byte of the file (ISO 32000-2, 12.8.1).

const BYTE_RANGE_WIDTH = 44;

export interface Placeholders {
  /** Where the /ByteRange numbers and the /Contents string start, from the start of the text. */
  byteRangeAt: number;
  contentsAt: number;
  /** Bytes the CMS may take. */
  reserved: number;
}

/** `before` and `after` around the two placeholders, e.g. "<< /Type /Sig ... /ByteRange [" and "] /Contents ". */
export function withPlaceholders(head: string, tail: string, reserved: number): { text: string } & Placeholders {
  const byteRangeAt = head.length;
  const middle = `${"0 0 0 0".padEnd(BYTE_RANGE_WIDTH)}] /Contents `;
  const contentsAt = byteRangeAt + middle.length;
  return { text: `${head}${middle}<${"0".repeat(reserved * 2)}> ${tail}`, byteRangeAt, contentsAt, reserved };
}

/** Writes the /ByteRange, hashes what it names, signs, and writes the CMS into the hole. `at` is where the signature dictionary starts in `out`. */
export async function fillSignature(out: Uint8Array, at: number, p: Placeholders, signer: Signer): Promise<[number, number, number, number]> {
  const holeStart = at + p.contentsAt;
  const holeEnd = holeStart + 2 + p.reserved * 2;
  const byteRange: [number, number, number, number] = [0, holeStart, holeEnd, out.length - holeEnd];
  out.set(latin1(byteRange.join(" ").padEnd(BYTE_RANGE_WIDTH)), at + p.byteRangeAt);

  const signed = new Uint8Array(holeStart + (out.length - holeEnd));
  signed.set(out.subarray(0, holeStart));
  signed.set(out.subarray(holeEnd), holeStart);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", signed));
  const cms = await buildCadesDetached(digest, signer);
  if (cms.length > p.reserved) throw new Error(`CMS of ${cms.length} bytes exceeds the ${p.reserved} reserved`);
  out.set(latin1(Array.from(cms, (b) => b.toString(16).padStart(2, "0")).join("")), holeStart + 1);
  return byteRange;
}
