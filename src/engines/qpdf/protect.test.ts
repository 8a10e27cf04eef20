import { describe, expect, it } from "vitest";
import { makePdf } from "../../../test/support/pdf.mjs";
import { EngineError } from "../errors";
import { PERMISSIONS, protectPdf } from "./protect";
import { runQpdf } from "./run";

// The engine's own edges, which the HTTP tests cannot reach: MuPDF's check
// runs first there, so qpdf never sees a file MuPDF could not read.

const all = new Set(PERMISSIONS);

describe("protectPdf", () => {
  it("a password that looks like an option stays a password", async () => {
    const out = await protectPdf(await makePdf({ pages: 1 }), { userPassword: "--print=none", ownerPassword: "-", encryption: "aes-256", permissions: all });
    expect((await runQpdf(["--check", "--password=--print=none", "{in}"], out.data)).code).toBe(0);
    expect((await runQpdf(["--check", "--password=-", "{in}"], out.data)).code).toBe(0);
    expect((await runQpdf(["--check", "--password=", "{in}"], out.data)).code).toBe(2);
  });

  it("a file qpdf cannot read is an EngineError corrupt, not a throw of qpdf's", async () => {
    const junk = new TextEncoder().encode("%PDF-1.7\nnot a pdf\n");
    const failure = await protectPdf(junk, { userPassword: "u", ownerPassword: "o", encryption: "aes-128", permissions: all }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).kind).toBe("corrupt");
  });
});
