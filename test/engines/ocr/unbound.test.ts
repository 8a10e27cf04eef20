import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, problem, withKey } from "../../support/http";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";

// A deployment whose OCR Worker is not bound (wrangler.toml without the
// [[services]] OCR entry): scanned pages cannot be read, and the call says so
// and costs nothing; text pages are unaffected. This file's isolate has its
// binding taken away; other test files keep theirs.

const bindings = env as unknown as Record<string, unknown>;
let saved: unknown;
beforeAll(() => {
  saved = bindings.OCR;
  bindings.OCR = undefined;
});
afterAll(() => {
  bindings.OCR = saved;
});

const page = () => layoutPdf([[{ text: "A letter that was printed and scanned.", x: 72, y: 100, size: 14 }]]);

describe("OCR without the OCR Worker bound", () => {
  it("a scan answers 503 ocr_unavailable naming the binding, refunded", async () => {
    const { key, token } = await accountWithKey({ plan: "pro", credits: 100 });
    const res = await postForm("/api/v1/pdf/to-markdown", { file: file(await scanOf(await page(), { dpi: 150 }), "scan.pdf") }, withKey(key));
    expect(res.status).toBe(503);
    const body = await problem(res);
    expect(body.code).toBe("ocr_unavailable");
    expect(body.detail).toMatch(/OCR/);
    expect(await balanceOf(token)).toBe(100);
  });

  it("a text PDF is converted as usual", async () => {
    const { key } = await accountWithKey({ plan: "pro", credits: 100 });
    const res = await postForm("/api/v1/pdf/to-markdown", { file: file(await page(), "doc.pdf") }, withKey(key));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { markdown: string }).markdown).toContain("A letter that was printed and scanned.");
  });
});
