import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAccount } from "../../support/accounts";
import { ownerEmail, signIn } from "./support";

// The cron trigger deletes sign-in links and sessions a day after they ended,
// so neither table grows with every sign-in; live rows are kept.

const worker = exports as unknown as { default: { scheduled(opts: { scheduledTime?: number; cron?: string }): Promise<unknown> } };

/** The session id a console cookie's JWT points at (its `sid` claim). */
const sidOf = (jwt: string): string => (JSON.parse(atob(jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sid: string }).sid;

const count = async (sql: string, ...args: string[]) =>
  ((
    await env.DB.prepare(sql)
      .bind(...args)
      .first<{ n: number }>()
  )?.n ?? 0) as number;

describe("the cron trigger purges ended sign-ins", () => {
  it("deletes links and sessions over a day past their end, keeps live ones", async () => {
    const account = await createAccount();
    const email = await ownerEmail(account.accountId);
    const live = await signIn(email);
    const ended = await signIn(email);
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    await env.DB.prepare("UPDATE sessions SET expires_at = ?1 WHERE id = ?2").bind(old, sidOf(ended.jwt)).run();
    await env.DB.prepare("UPDATE magic_links SET expires_at = ?1 WHERE email = ?2").bind(old, email).run();
    expect(await count("SELECT COUNT(*) AS n FROM magic_links WHERE email = ?1", email)).toBeGreaterThan(0);

    await worker.default.scheduled({ cron: "*/5 * * * *" });

    expect(await count("SELECT COUNT(*) AS n FROM magic_links WHERE email = ?1", email)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM sessions WHERE id = ?1", sidOf(ended.jwt))).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM sessions WHERE id = ?1", sidOf(live.jwt))).toBe(1);
  });
});
