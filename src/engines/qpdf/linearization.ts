import { runQpdf } from "./run";

// The repaired file is written linearized ("fast web view", ISO 32000-1
// Annex F): MuPDF 1.28 cannot write that, qpdf can. Whether a file really is
// linearized is read from the file itself, not assumed from qpdf's exit code.

/** The bytes a linearization dictionary must appear in: the first object comes right after the header. */
const HEAD_BYTES = 1024;

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join("");

/**
 * True when the first object of the file is a linearization dictionary whose
 * /L is the file's length (an appended update would change the length and
 * void the linearization).
 */
export function isLinearized(bytes: Uint8Array): boolean {
  const head = latin1(bytes.subarray(0, HEAD_BYTES));
  // Header line, an optional binary comment line, then "N G obj <<".
  const first = /^%PDF-\d\.\d[^\r\n]*[\r\n]+(?:%[^\r\n]*[\r\n]+)*\s*\d+\s+\d+\s+obj\s*<<([\s\S]*?)>>/.exec(head);
  if (!first || !/\/Linearized\s+[\d.]+/.test(first[1])) return false;
  const length = /\/L\s+(\d+)/.exec(first[1]);
  return length !== null && Number(length[1]) === bytes.byteLength;
}

export interface Linearized {
  data: Uint8Array;
  /** What qpdf said, when it warned. */
  messages: string[];
}

/** `qpdf --linearize` in memory; null when qpdf failed or the result is not a linearized file. */
export async function linearize(bytes: Uint8Array): Promise<Linearized | null> {
  const run = await runQpdf(["--linearize", "--object-streams=preserve", "{in}", "{out}"], bytes);
  if (run.code !== 0 || !run.output || !isLinearized(run.output)) return null;
  return { data: run.output, messages: run.messages };
}
