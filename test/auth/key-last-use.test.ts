import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LAST_USE_INTERVAL_MS, lastUseIsStale } from "../../src/auth/key-usage";
import { createAccount, createKey } from "../support/accounts";
import { call, postJson, problem, withKey, withToken } from "../support/http";
import { eventually } from "../webhooks/support/network";

// "Last used" of an API key (issue #17): shown by the key list, recorded off
// the request path and at most once per key per LAST_USE_INTERVAL_MS.

type ListedKey = { id: string; last_used_at: string | null };

async function lastUsed(token: string, keyId: string): Promise<string | null> {
  const res = await call("/api/v1/keys", { headers: withToken(token) });
  expect(res.status).toBe(200);
  const key = ((await res.json()) as { data: ListedKey[] }).data.find((k) => k.id === keyId);
  expect(key).toBeDefined();
  return key!.last_used_at;
}

/** One authenticated call with the key that costs nothing: the usage report (read permission). */
async function useKey(secret: string): Promise<void> {
  const res = await call("/api/v1/usage", { headers: withKey(secret) });
  expect(res.status, await res.clone().text()).toBe(200);
}

const setStored = (keyId: string, at: string | null) => env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(at, keyId).run();

describe("API key last use", () => {
  it("is null for a new key, then the time of its first authenticated call", async () => {
    const acc = await createAccount();
    const created = await postJson("/api/v1/keys", { name: "fresh" }, withToken(acc.token));
    const key = (await created.json()) as ListedKey & { api_key: string };
    expect(key.last_used_at).toBeNull();
    expect(await lastUsed(acc.token, key.id)).toBeNull();

    const before = Date.now();
    await useKey(key.api_key);
    const at = await eventually(() => lastUsed(acc.token, key.id), 5_000, "last_used_at recorded");
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(at)).toBeLessThanOrEqual(Date.now());
    expect(at).toBe(new Date(Date.parse(at)).toISOString());
  });

  it("is not rewritten within the interval, and is rewritten once it has passed", async () => {
    const acc = await createAccount();
    const recent = await createKey(acc.token, { name: "recent" });
    const old = await createKey(acc.token, { name: "old" });
    const recentAt = new Date(Date.now() - LAST_USE_INTERVAL_MS / 2).toISOString();
    const oldAt = new Date(Date.now() - LAST_USE_INTERVAL_MS - 60_000).toISOString();
    await setStored(recent.id, recentAt);
    await setStored(old.id, oldAt);

    await useKey(recent.api_key);
    await useKey(old.api_key);
    // The old key's write was started after the recent key's call: once it shows, a write for the recent key would have too.
    const rewritten = await eventually(
      async () => {
        const v = await lastUsed(acc.token, old.id);
        return v !== oldAt ? v : null;
      },
      5_000,
      "stale last_used_at rewritten",
    );
    expect(Date.parse(rewritten!)).toBeGreaterThan(Date.parse(oldAt) + LAST_USE_INTERVAL_MS);
    expect(await lastUsed(acc.token, recent.id)).toBe(recentAt);

    // Many calls in a row write once: the value stays the first call's.
    for (let i = 0; i < 3; i++) await useKey(old.api_key);
    expect(await lastUsed(acc.token, old.id)).toBe(rewritten);
  });

  it("a refused key records nothing, and a JWT call touches no key", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token, { name: "revoked" });
    expect((await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: withToken(acc.token) })).status).toBe(204);
    expect((await call("/api/v1/usage", { headers: withKey(key.api_key) })).status).toBe(401);
    expect((await call("/api/v1/usage", { headers: withToken(acc.token) })).status).toBe(200);
    const other = await createKey(acc.token, { name: "marker" });
    await useKey(other.api_key);
    await eventually(() => lastUsed(acc.token, other.id), 5_000, "marker key recorded");
    expect(await lastUsed(acc.token, key.id)).toBeNull();
  });
});

describe("GET /api/v1/keys/{keyId}", () => {
  it("answers one key as the list shows it, last use included; never the secret; another account's key is a 404", async () => {
    const acc = await createAccount();
    const stranger = await createAccount();
    const key = await createKey(acc.token, { name: "single", credit_limit: 50 });
    await useKey(key.api_key);
    const at = await eventually(() => lastUsed(acc.token, key.id), 5_000, "last_used_at recorded");

    const res = await call(`/api/v1/keys/${key.id}`, { headers: withToken(acc.token) });
    expect(res.status).toBe(200);
    const one = (await res.json()) as Record<string, unknown>;
    const listed = ((await (await call("/api/v1/keys", { headers: withToken(acc.token) })).json()) as { data: Record<string, unknown>[] }).data;
    expect(one).toEqual(listed.find((k) => k.id === key.id));
    expect(one).toMatchObject({ name: "single", credit_limit: 50, last_used_at: at, is_active: true });
    expect(JSON.stringify(one)).not.toContain(key.api_key);

    const foreign = await problem(await call(`/api/v1/keys/${key.id}`, { headers: withToken(stranger.token) }));
    expect([foreign.status, foreign.code]).toEqual([404, "not_found"]);
    // Keys never manage keys (docs/reference/accounts-and-keys.md): the key itself cannot read its record.
    expect((await call(`/api/v1/keys/${key.id}`, { headers: withKey(key.api_key) })).status).toBe(403);
  });
});

describe("lastUseIsStale", () => {
  const now = Date.parse("2026-11-26T12:00:00.000Z");
  it("writes when nothing is stored or remembered, or both are older than the interval", () => {
    expect(lastUseIsStale(null, undefined, now)).toBe(true);
    expect(lastUseIsStale(new Date(now - LAST_USE_INTERVAL_MS).toISOString(), undefined, now)).toBe(true);
    expect(lastUseIsStale("not a date", undefined, now)).toBe(true);
  });
  it("skips when either the stored or this isolate's remembered write is recent", () => {
    expect(lastUseIsStale(new Date(now - 1_000).toISOString(), undefined, now)).toBe(false);
    expect(lastUseIsStale(null, now - 1_000, now)).toBe(false);
    expect(lastUseIsStale(new Date(now - LAST_USE_INTERVAL_MS * 2).toISOString(), now - 1_000, now)).toBe(false);
  });
});
