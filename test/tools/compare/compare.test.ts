import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, problem, withKey } from "../../support/http";
import { corruptPdf, docxOf, encryptedPdf, fixturePdf } from "../../support/pdf.mjs";
import type { Answer } from "../../support/answers";

// Compare documents (docs/reference/compare.md); issue #12: modified lines matched by similarity,
// lists capped at 200 and totals not, scores consistent, type echoed.

const PATH = "/api/v1/analyze/compare";
const txt = (lines: string[]) => new TextEncoder().encode(lines.join("\n"));

type Body = Answer<"compare-documents">;

async function compare(one: File, two: File, key: string, extra: Record<string, string> = {}) {
  const res = await postForm(PATH, { file1: one, file2: two, ...extra }, withKey(key));
  return { res, body: (await res.clone().json()) as Body };
}

const before = [
  "Service Agreement",
  "The supplier delivers the goods within 30 days of the order.",
  "Payment is due within 14 days of the invoice date.",
  "This agreement is governed by the laws of England.",
  "Either party may end it with one month of notice.",
];
// Line 2 edited and moved below line 3; line 4 removed; a line added at the end.
const after = [
  "Service Agreement",
  "Payment is due within 14 days of the invoice date.",
  "The supplier delivers the goods within 45 days of the order.",
  "Either party may end it with one month of notice.",
  "Disputes go to arbitration in London.",
];

describe("compare documents", () => {
  it("text files: an edited line that moved pairs with its new self; removed and added lines are listed; scores agree", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const { res, body } = await compare(file(txt(before), "v1.txt", "text/plain"), file(txt(after), "v2.txt", "text/plain"), acct.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("40");
    expect(body.credits_charged).toBe(40);
    const { differences, summary } = body.result;
    expect(differences.modified).toHaveLength(1);
    expect(differences.modified[0]).toMatchObject({ before: before[1], after: after[2] });
    expect(differences.modified[0].changes).toEqual([
      { type: "removed", text: "30" },
      { type: "added", text: "45" },
    ]);
    expect(differences.removed).toEqual([before[3]]);
    expect(differences.added).toEqual([after[4]]);
    expect(body.result.total_differences).toBe(3);
    expect(summary).toMatchObject({ total_differences: 3, added: 1, removed: 1, modified: 1, exact: true });
    expect(body.result.similarity_score).toBeGreaterThan(0.6);
    expect(body.result.similarity_score).toBeLessThan(0.95);
    expect(summary.similarity_percentage).toBeCloseTo(body.result.similarity_score * 100, 1);
    expect(body.meta).toMatchObject({ file1_pages: 1, file2_pages: 1, comparison_type: "text" });
    expect(await balanceOf(acct.token)).toBe(960);
  });

  it("PDFs: reads both as text, counts pages, and echoes comparison_type", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const one = await fixturePdf([{ lines: before.slice(0, 3) }, { lines: before.slice(3) }]);
    const two = await fixturePdf([{ lines: after.slice(0, 3) }, { lines: after.slice(3) }, { lines: ["Annex A"] }]);
    const { res, body } = await compare(file(one, "v1.pdf"), file(two, "v2.pdf"), acct.key, { comparison_type: "full" });
    expect(res.status).toBe(200);
    expect(body.meta).toMatchObject({ file1_pages: 2, file2_pages: 3, comparison_type: "full" });
    expect(body.result.differences.modified.map((m) => m.after)).toEqual([after[2]]);
    expect(body.result.differences.added).toEqual([after[4], "Annex A"]);
  });

  it("DOCX: both files read as Word documents (the first file's extension decides)", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const { res, body } = await compare(file(await docxOf(before), "v1.docx", "application/octet-stream"), file(await docxOf(after), "v2.bin"), acct.key);
    expect(res.status).toBe(200);
    expect(body.result.total_differences).toBe(3);
    expect(body.result.differences.removed).toEqual([before[3]]);
  });

  it("identical documents: similarity 1, no differences", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const { body } = await compare(file(txt(before), "a.txt"), file(txt(before), "b.txt"), acct.key);
    expect(body.result).toMatchObject({ similarity_score: 1, total_differences: 0, summary: { similarity_percentage: 100 } });
  });

  it("lists stop at 200 entries; totals do not", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const many = Array.from({ length: 450 }, (_, i) => `Appended clause number ${i} about ${(i * 7919) % 1000} different widgets`);
    const { body } = await compare(file(txt(before), "a.txt"), file(txt([...before, ...many]), "b.txt"), acct.key);
    expect(body.result.differences.added).toHaveLength(200);
    expect(body.result.total_differences).toBe(450);
    expect(body.result.summary.added).toBe(450);
  });

  it("texts too different for a line diff are compared as bags of lines, and say so", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const a = Array.from({ length: 5000 }, (_, i) => `alpha ${i} ${(i * 31) % 97}`);
    const b = Array.from({ length: 5000 }, (_, i) => `beta ${i} ${(i * 17) % 89}`);
    const { res, body } = await compare(file(txt([...a, "shared line"]), "a.txt"), file(txt(["shared line", ...b]), "b.txt"), acct.key);
    expect(res.status).toBe(200);
    expect(body.result.summary.exact).toBe(false);
    expect(body.result.total_differences).toBe(10_000);
    expect(body.result.similarity_score).toBeCloseTo((2 * 1) / 10_002, 4);
  });

  it("errors: 401 anonymous, 415 for file1 of another type, 422 missing file2 or bad type, unreadable and locked PDFs refunded", async () => {
    const anon = await postForm(PATH, { file1: file(txt(before), "a.txt"), file2: file(txt(after), "b.txt") });
    expect(anon.status).toBe(401);
    const acct = await accountWithKey({ credits: 1000 });
    const png = await compare(file(txt(before), "a.png", "image/png"), file(txt(after), "b.txt"), acct.key);
    expect(png.res.status).toBe(415);
    const missing = await postForm(PATH, { file1: file(txt(before), "a.txt") }, withKey(acct.key));
    expect(missing.status).toBe(422);
    expect((await problem(missing)).code).toBe("validation_failed");
    const badType = await compare(file(txt(before), "a.txt"), file(txt(after), "b.txt"), acct.key, { comparison_type: "semantic" });
    expect(badType.res.status).toBe(422);
    const pdf = await fixturePdf([{ lines: before }]);
    const broken = await compare(file(pdf, "a.pdf"), file(corruptPdf(), "b.pdf"), acct.key);
    expect(broken.res.status).toBe(422);
    const p = await problem(broken.res);
    expect(p.code).toBe("unreadable_document");
    expect(p.detail).toContain("file2");
    const locked = await compare(file(await encryptedPdf(pdf), "a.pdf"), file(pdf, "b.pdf"), acct.key);
    expect(locked.res.status).toBe(422);
    expect((await problem(locked.res)).code).toBe("password_protected");
    for (const r of [png.res, missing, badType.res, broken.res, locked.res]) expect(r.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acct.token)).toBe(1000);
  });
});
