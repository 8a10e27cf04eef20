import { runQpdf } from "../../../src/engines/qpdf/run";

// qpdf's own checks, as a second opinion on what Repair PDF writes. workerd
// cannot start the native qpdf, so the tests run the same qpdf (12.2, the
// WebAssembly build the Worker bundles) as a command line; its --check and
// --check-linearization are qpdf's, not ours, and share no code with the
// MuPDF recovery or with the Worker's own linearization test.

export interface QpdfVerdict {
  /** 0 clean, 2 errors, 3 warnings. */
  code: number;
  messages: string[];
}

export async function qpdfCheck(bytes: Uint8Array): Promise<QpdfVerdict> {
  const { code, messages } = await runQpdf(["--check", "{in}"], bytes);
  return { code, messages };
}

export async function qpdfCheckLinearization(bytes: Uint8Array): Promise<QpdfVerdict> {
  const { code, messages } = await runQpdf(["--check-linearization", "{in}"], bytes);
  return { code, messages };
}
