import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { balanceOf, createAccount, createKey } from "../support/accounts";
import { call, pdfFile, postForm, problem, withKey, withToken } from "../support/http";
import { makePdf } from "../support/pdf.mjs";

const MERGE = "/api/v1/pdf/merge/merge";

async function mergeForm() {
  const pdf = await makePdf({ pages: 1 });
  return { files: [pdfFile(pdf, "a.pdf"), pdfFile(pdf, "b.pdf")] };
}

async function ledger(accountId: string) {
  const rows = await env.DB.prepare("SELECT kind, credits, operation, request_id, key_id FROM credit_ledger WHERE account_id = ? ORDER BY id")
    .bind(accountId)
    .all<{ kind: string; credits: number; operation: string | null; request_id: string | null; key_id: string | null }>();
  return rows.results;
}

describe("metering", () => {
  it("charges the table's credits: header equals the debit, balance falls by exactly that, ledger records it", async () => {
    const acc = await createAccount({ credits: 100 });
    const key = await createKey(acc.token);
    const res = await postForm(MERGE, await mergeForm(), withKey(key.api_key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balanceOf(acc.token)).toBe(90);
    const rows = (await ledger(acc.accountId)).filter((r) => r.kind === "debit");
    expect(rows).toEqual([{ kind: "debit", credits: -10, operation: "pdf.merge", request_id: res.headers.get("X-Request-Id"), key_id: key.id }]);
  });

  it("a dashboard JWT can call tools and is billed the same", async () => {
    const acc = await createAccount({ credits: 50 });
    const res = await postForm(MERGE, await mergeForm(), withToken(acc.token));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acc.token)).toBe(40);
  });

  it("anonymous free-try calls are charged 0", async () => {
    const res = await postForm(MERGE, await mergeForm());
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  });

  it("refunds in full when the tool fails, and says 0 in the header", async () => {
    const acc = await createAccount({ credits: 100 });
    const key = await createKey(acc.token);
    const good = await makePdf({ pages: 1 });
    const junk = new TextEncoder().encode("%PDF-1.7\nthis is not really a pdf at all\n%%EOF");
    const res = await postForm(MERGE, { files: [pdfFile(good, "a.pdf"), pdfFile(junk, "b.pdf")] }, withKey(key.api_key));
    expect(res.status).toBe(422);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect((await problem(res)).code).toBe("unreadable_document");
    expect(await balanceOf(acc.token)).toBe(100);
    const kinds = (await ledger(acc.accountId)).map((r) => [r.kind, r.credits]);
    expect(kinds).toEqual([
      ["grant", 100],
      ["debit", -10],
      ["refund", 10],
    ]);
  });

  it("402 when the balance is short; nothing is charged", async () => {
    const acc = await createAccount({ credits: 5 });
    const key = await createKey(acc.token);
    const res = await postForm(MERGE, await mergeForm(), withKey(key.api_key));
    expect(res.status).toBe(402);
    expect((await problem(res)).code).toBe("insufficient_credits");
    expect(await balanceOf(acc.token)).toBe(5);
  });

  it("20 concurrent calls against a balance that covers 7 charge exactly 7", async () => {
    const acc = await createAccount({ credits: 70 });
    const keys = await Promise.all([createKey(acc.token), createKey(acc.token)]);
    const fields = await mergeForm();
    // Spend from two keys and the JWT at once: one account balance must stay exact.
    const auths = [withKey(keys[0].api_key), withKey(keys[1].api_key), withToken(acc.token)];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postForm(MERGE, fields, auths[i % 3])));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(13);
    expect(results.filter((r) => r.headers.get("X-Credits-Charged") === "10")).toHaveLength(7);
    expect(await balanceOf(acc.token)).toBe(0);
    expect((await ledger(acc.accountId)).filter((r) => r.kind === "debit")).toHaveLength(7);
  });

  it("a key's monthly credit_limit: concurrent calls stop exactly at the budget with 402 budget_exceeded", async () => {
    const acc = await createAccount({ credits: 1000 });
    const key = await createKey(acc.token, { credit_limit: 30 });
    const fields = await mergeForm();
    const results = await Promise.all(Array.from({ length: 10 }, () => postForm(MERGE, fields, withKey(key.api_key))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(7);
    expect((await problem(refused[0])).code).toBe("budget_exceeded");
    expect(await balanceOf(acc.token)).toBe(970);
    // Another key of the same account is not limited by this key's budget.
    const other = await createKey(acc.token);
    expect((await postForm(MERGE, fields, withKey(other.api_key))).status).toBe(200);
  });

  it("a scope that does not include the operation is 403 and costs nothing", async () => {
    const acc = await createAccount({ credits: 100 });
    const key = await createKey(acc.token, { scopes: ["pdf.split"] });
    const res = await postForm(MERGE, await mergeForm(), withKey(key.api_key));
    expect(res.status).toBe(403);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect((await problem(res)).code).toBe("scope_denied");
    expect(await balanceOf(acc.token)).toBe(100);
  });

  it("a key without the write permission cannot run tools", async () => {
    const acc = await createAccount({ credits: 100 });
    const key = await createKey(acc.token, { permissions: ["read"] });
    const res = await postForm(MERGE, await mergeForm(), withKey(key.api_key));
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("permission_denied");
    expect(await balanceOf(acc.token)).toBe(100);
  });

  it("an invalid key is 401 even on a free-try tool (no silent fall-back to anonymous)", async () => {
    const res = await postForm(MERGE, await mergeForm(), withKey("dt_live_definitely-not-a-key"));
    expect(res.status).toBe(401);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect((await problem(res)).code).toBe("invalid_credentials");
  });

  it("anonymous callers are rate limited per IP with 429 and Retry-After", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const fields = await mergeForm();
    let limited: Response | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await call(MERGE, {
        method: "POST",
        body: (() => {
          const fd = new FormData();
          for (const f of fields.files) fd.append("files", f);
          return fd;
        })(),
        ip,
      });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited, "no 429 within 25 anonymous calls").toBeDefined();
    expect(limited!.headers.get("Retry-After")).toBe("60");
    expect((await problem(limited!)).code).toBe("rate_limited");
    // Another IP is not affected.
    expect((await postForm(MERGE, fields)).status).toBe(200);
  });
});
