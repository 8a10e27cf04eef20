import { expect } from "vitest";
import { accountWithKey, balanceOf } from "./accounts";
import { postForm, problem, withKey, type form } from "./http";

type Fields = Parameters<typeof form>[0];

/**
 * Metering (docs/reference/README.md, Tools; docs/reference/errors.md), checked against the account balance: a success charges
 * exactly `cost` (header, body and balance agree), a failing call is refunded
 * and reports 0, and (for free-try tools) an anonymous call costs 0.
 */
export async function expectMetering(
  path: string,
  ok: () => Promise<Fields>,
  failing: () => Promise<Fields>,
  cost: number,
  anonymous: "free" | "401",
): Promise<void> {
  const acct = await accountWithKey({ credits: 500 });
  const before = await balanceOf(acct.token);

  const res = await postForm(path, await ok(), withKey(acct.key));
  const body = (await res.json()) as { credits_charged: number };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get("X-Credits-Charged")).toBe(String(cost));
  expect(body.credits_charged).toBe(cost);
  expect(await balanceOf(acct.token)).toBe(before - cost);

  const bad = await postForm(path, await failing(), withKey(acct.key));
  expect(bad.status).toBeGreaterThanOrEqual(400);
  expect(bad.headers.get("X-Credits-Charged")).toBe("0");
  await problem(bad);
  expect(await balanceOf(acct.token)).toBe(before - cost);

  const anon = await postForm(path, await ok());
  if (anonymous === "free") {
    const anonBody = (await anon.json()) as { credits_charged: number };
    expect(anon.status, JSON.stringify(anonBody)).toBe(200);
    expect(anon.headers.get("X-Credits-Charged")).toBe("0");
    expect(anonBody.credits_charged).toBe(0);
  } else {
    expect(anon.status).toBe(401);
    expect((await problem(anon)).code).toBe("unauthorized");
  }
}
