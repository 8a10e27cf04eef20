import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountWithKey, createKey } from "../../support/accounts";
import { type AuthHeaders, call, pdfFile, postForm, problem, withKey, withToken } from "../../support/http";
import { encryptedPdf, makePdf } from "../../support/pdf.mjs";
import { consoleHeaders, ownerEmail, signIn } from "./support";
import type { Answer } from "../../support/answers";

// Issue #17, GET /api/v1/usage: credits and calls from the credit ledger,
// after real tool calls, by day, tool and key; an account sees only its own.

type Usage = Answer<"getUsage">;

const today = () => new Date().toISOString().slice(0, 10);

async function merge(auth: AuthHeaders): Promise<Response> {
  return postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(await makePdf({ pages: 1 }), "a.pdf"), pdfFile(await makePdf({ pages: 2 }), "b.pdf")] }, auth);
}

async function usage(auth: AuthHeaders, query = ""): Promise<Usage> {
  const res = await call(`/api/v1/usage${query}`, { headers: auth });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Usage;
}

/** Merges and checks the charge each call reports: Merge PDF's 10 credits. */
async function chargedMerge(auth: AuthHeaders): Promise<void> {
  const res = await merge(auth);
  expect(res.status).toBe(200);
  expect(res.headers.get("X-Credits-Charged")).toBe("10");
}

describe("GET /api/v1/usage", () => {
  it("reports real calls by tool, by key and by day, net of refunds, and only the caller's account", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const second = await createKey(acct.token, { name: "second <key>" });
    await chargedMerge(withKey(acct.key));
    await chargedMerge(withKey(acct.key));
    await chargedMerge(withKey(second.api_key));
    await chargedMerge(withToken(acct.token));
    // A failing call is charged then refunded: it costs nothing and is not counted.
    const failed = await postForm(
      "/api/v1/pdf/merge/merge",
      { files: [pdfFile(await encryptedPdf(), "locked.pdf"), pdfFile(await makePdf({ pages: 1 }), "b.pdf")] },
      withKey(acct.key),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.headers.get("X-Credits-Charged")).toBe("0");
    // Another account's spending never shows.
    const stranger = await accountWithKey({ credits: 1000 });
    await chargedMerge(withKey(stranger.key));

    const byTool = await usage(withToken(acct.token), "?group_by=tool");
    expect(byTool.rows).toEqual([{ key: "pdf.merge", label: "Merge PDF", credits: 40, calls: 4 }]);
    expect([byTool.total_credits, byTool.total_calls]).toEqual([40, 4]);

    const byKey = await usage(withToken(acct.token), "?group_by=key");
    expect(byKey.rows).toEqual([
      { key: acct.keyId, label: "test key", credits: 20, calls: 2 },
      { key: "jwt", label: "Dashboard and console (no API key)", credits: 10, calls: 1 },
      { key: second.id, label: "second <key>", credits: 10, calls: 1 },
    ]);

    // The default range is the current UTC month, one row per day, zeros included.
    const byDay = await usage(withToken(acct.token));
    const now = new Date();
    const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    expect(byDay.from).toBe(`${today().slice(0, 7)}-01`);
    expect(byDay.to).toBe(`${today().slice(0, 7)}-${String(days).padStart(2, "0")}`);
    expect(byDay.group_by).toBe("day");
    expect(byDay.rows).toHaveLength(days);
    expect(byDay.rows.find((r) => r.key === today())).toEqual({ key: today(), credits: 40, calls: 4 });
    expect(byDay.rows.filter((r) => r.key !== today()).every((r) => r.credits === 0 && r.calls === 0)).toBe(true);
    expect(byDay.total_credits).toBe(40);

    const theirs = await usage(withToken(stranger.token), "?group_by=key");
    expect(theirs.rows).toEqual([{ key: stranger.keyId, label: "test key", credits: 10, calls: 1 }]);
  });

  it("splits by UTC day across a range", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    await chargedMerge(withKey(acct.key));
    await chargedMerge(withKey(acct.key));
    // Move one debit to an earlier day, as if it had been made then.
    await env.DB.prepare(
      "UPDATE credit_ledger SET created_at = '2026-03-04T23:59:59.999Z' WHERE id = (SELECT MIN(id) FROM credit_ledger WHERE account_id = ? AND kind = 'debit')",
    )
      .bind(acct.accountId)
      .run();
    const march = await usage(withKey(acct.key), "?from=2026-03-04&to=2026-03-05");
    expect(march.rows).toEqual([
      { key: "2026-03-04", credits: 10, calls: 1 },
      { key: "2026-03-05", credits: 0, calls: 0 },
    ]);
    const nextDay = await usage(withKey(acct.key), "?from=2026-03-05&to=2026-03-05&group_by=tool");
    expect(nextDay.rows).toEqual([]);
    expect([nextDay.total_credits, nextDay.total_calls]).toEqual([0, 0]);
  });

  it("takes the console cookie, or a key with the read permission only", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    await chargedMerge(withKey(acct.key));
    const s = await signIn(await ownerEmail(acct.accountId));
    expect((await usage({ Cookie: s.cookie }, "?group_by=tool")).total_credits).toBe(10);
    expect((await usage(consoleHeaders(s), "?group_by=tool")).total_calls).toBe(1);

    const writer = await createKey(acct.token, { name: "writer", permissions: ["write"] });
    const denied = await call("/api/v1/usage", { headers: withKey(writer.api_key) });
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("permission_denied");
    const none = await call("/api/v1/usage");
    expect(none.status).toBe(401);
  });

  it.each([
    ["an impossible date", "?from=2026-02-30&to=2026-03-01", "from"],
    ["a date that is not YYYY-MM-DD", "?from=2026-3-1", "from"],
    ["from after to", "?from=2026-03-02&to=2026-03-01", "to"],
    ["a range over 366 days", "?from=2025-01-01&to=2026-01-02", "to"],
  ])("answers %s with 400 bad_request naming the field", async (_label, query, field) => {
    const acct = await accountWithKey();
    const res = await call(`/api/v1/usage${query}`, { headers: withToken(acct.token) });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe("bad_request");
    expect(body.errors?.[0].field).toBe(field);
  });

  it("accepts exactly 366 days and refuses an unknown grouping (422)", async () => {
    const acct = await accountWithKey();
    const leap = await usage(withToken(acct.token), "?from=2024-01-01&to=2024-12-31");
    expect(leap.rows).toHaveLength(366);
    const res = await call("/api/v1/usage?group_by=week", { headers: withToken(acct.token) });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("validation_failed");
  });
});
