import { ADMIN_TOKEN, call, postJson, withToken } from "./http";

export interface TestAccount {
  accountId: string;
  ownerId: string;
  token: string;
}

let seq = 0;
export function uniqueEmail(tag = "user"): string {
  seq++;
  return `${tag}-${Date.now().toString(36)}-${seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Creates an account through the operator API (its owner's JWT included). */
export async function createAccount(opts: { plan?: string; credits?: number } = {}): Promise<TestAccount> {
  const res = await postJson(
    "/admin/v1/accounts",
    { name: "Test Co", plan: opts.plan ?? "pro", credits: opts.credits ?? 1000, owner_email: uniqueEmail("owner") },
    { Authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  if (res.status !== 201) throw new Error(`create account: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { account: { id: string }; owner: { id: string }; token: string };
  return { accountId: body.account.id, ownerId: body.owner.id, token: body.token };
}

export interface CreatedKey {
  id: string;
  api_key: string;
  scopes: string[];
  credit_limit: number | null;
}

export async function createKey(token: string, body: Record<string, unknown> = {}): Promise<CreatedKey> {
  const res = await postJson("/api/v1/keys", { name: "test key", ...body }, withToken(token));
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedKey;
}

export async function balanceOf(token: string): Promise<number> {
  const res = await call("/api/v1/account", { headers: withToken(token) });
  if (res.status !== 200) throw new Error(`account: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { balance: number }).balance;
}

/** An account with a key, the usual starting point of a tool test. */
export async function accountWithKey(opts: { plan?: string; credits?: number } = {}) {
  const account = await createAccount(opts);
  const key = await createKey(account.token);
  return { ...account, key: key.api_key, keyId: key.id };
}
