import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAccount, createKey, uniqueEmail } from "../support/accounts";
import { call, postJson, problem, withKey, withToken } from "../support/http";
import { publicDocument } from "../openapi/support";
import { mailedInviteToken, mailTo } from "./support";
import type { Answer } from "../support/answers";

// Team endpoints through HTTP: invitations, roles, removal, and the owner
// rules documented in docs/reference/accounts-and-keys.md (Team). Invitation
// tokens are read from the invitee's mail (./support.ts): the inviter never
// sees them.

type Member = Answer<"listTeamMembers">["data"][number];

async function invite(token: string, body: Record<string, unknown>): Promise<Response> {
  return postJson("/api/v1/team/invitations", body, withToken(token));
}

/** Invites and accepts; returns the new member with their JWT. */
async function join(ownerToken: string, role: "owner" | "admin" | "member" = "member", email = uniqueEmail(role)) {
  const res = await invite(ownerToken, { email, role });
  expect(res.status).toBe(201);
  const acc = await accept(await mailedInviteToken(email));
  expect(acc.status).toBe(200);
  return (await acc.json()) as { user: Member & { account_id: string }; token: string };
}

const accept = (invite_token: string) => postJson("/api/v1/team/invitations/accept", { invite_token });

const emailOf = async (userId: string) =>
  ((await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string }>()) as { email: string }).email;

async function members(token: string): Promise<Member[]> {
  const res = await call("/api/v1/team/members", { headers: withToken(token) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Member[] }).data;
}

const patchRole = (token: string, userId: string, role: string) =>
  call(`/api/v1/team/members/${userId}`, {
    method: "PATCH",
    body: JSON.stringify({ role }),
    headers: { "Content-Type": "application/json", ...withToken(token) },
  });
const remove = (token: string, userId: string) => call(`/api/v1/team/members/${userId}`, { method: "DELETE", headers: withToken(token) });

describe("members list", () => {
  it("any dashboard user may list; keys and anonymous callers may not", async () => {
    const owner = await createAccount();
    const m = await join(owner.token, "member");
    const list = await members(m.token);
    expect(list.map((x) => x.id).sort()).toEqual([owner.ownerId, m.user.id].sort());
    expect(list.find((x) => x.id === owner.ownerId)!.role).toBe("owner");
    const key = await createKey(owner.token);
    expect((await problem(await call("/api/v1/team/members", { headers: withKey(key.api_key) }))).code).toBe("forbidden");
    expect((await problem(await call("/api/v1/team/members"))).code).toBe("unauthorized");
  });
});

describe("invitations", () => {
  it("invite answers 201 without the token; the invitee gets it by mail, and accepting needs no auth and answers the user and a working JWT", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("new");
    const res = await invite(owner.token, { email: email.toUpperCase() });
    const text = await res.text();
    const inv = JSON.parse(text) as Record<string, string>;
    expect(res.status).toBe(201);
    expect(Object.keys(inv).sort()).toEqual(["email", "expires_at", "id", "invited_by", "role"]);
    expect(inv).toMatchObject({ email, role: "member", invited_by: owner.ownerId });

    const token = await mailedInviteToken(email);
    // Nowhere in the inviter's answer, headers included.
    expect(text).not.toContain(token);
    expect([...res.headers.values()].join(" ")).not.toContain(token);
    const stored = await env.DB.prepare("SELECT token_hash FROM team_invitations WHERE id = ?").bind(inv.id).first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toContain(token.slice(4));

    const acc = await accept(token);
    const body = (await acc.json()) as { user: Member & { account_id: string }; token: string };
    expect(acc.status).toBe(200);
    expect(body.user).toMatchObject({ email, role: "member", account_id: owner.accountId });
    expect((await call("/api/v1/account", { headers: withToken(body.token) })).status).toBe(200);

    const again = await problem(await accept(token));
    expect([again.status, again.code]).toEqual([410, "gone"]);
    expect((await problem(await accept("inv_does-not-exist-000000000"))).code).toBe("not_found");
  });

  it("the inviting account cannot accept its own invitation: it never holds the token", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("mine");
    const inv = (await (await invite(owner.token, { email, role: "admin" })).json()) as Record<string, string>;
    // What the inviter has: the invitation's id and fields. None of it is the token.
    for (const guess of Object.values(inv)) {
      const res = await accept(guess.padEnd(10, "0"));
      expect([404, 422]).toContain(res.status);
    }
    expect((await members(owner.token)).map((m) => m.email)).not.toContain(email);
    // The invitee, with the mail, can.
    expect((await accept(await mailedInviteToken(email))).status).toBe(200);
  });

  it("an expired invitation and one replaced by a newer invitation are gone", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("twice");
    const first = (await (await invite(owner.token, { email })).json()) as { id: string };
    const firstToken = await mailedInviteToken(email);
    const second = (await (await invite(owner.token, { email })).json()) as { id: string };
    const secondToken = await mailedInviteToken(email);
    expect(secondToken).not.toBe(firstToken);
    expect(first.id).not.toBe(second.id);
    expect((await problem(await accept(firstToken))).code).toBe("gone");
    await env.DB.prepare("UPDATE team_invitations SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), second.id)
      .run();
    expect((await problem(await accept(secondToken))).code).toBe("gone");
  });

  it("validates the body, refuses a member of this team, and needs manage_team", async () => {
    const owner = await createAccount();
    expect((await problem(await invite(owner.token, { email: "not-an-email" }))).code).toBe("validation_failed");
    expect((await problem(await invite(owner.token, { email: uniqueEmail(), role: "superuser" }))).code).toBe("validation_failed");
    const ownEmail = await emailOf(owner.ownerId);
    const mine = await problem(await invite(owner.token, { email: ownEmail }));
    expect([mine.status, mine.code]).toEqual([409, "conflict"]);
    const m = await join(owner.token, "member");
    expect((await problem(await invite(owner.token, { email: m.user.email }))).code).toBe("conflict");
    expect((await problem(await invite(m.token, { email: uniqueEmail() }))).code).toBe("permission_denied");
  });

  it("inviting another account's user answers exactly as for anyone: no cross-account enumeration", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const taken = await emailOf(other.ownerId);
    const fresh = uniqueEmail("fresh");
    const [a, b] = [await invite(owner.token, { email: taken, role: "admin" }), await invite(owner.token, { email: fresh, role: "admin" })];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.headers.get("Content-Type")).toBe(b.headers.get("Content-Type"));
    const [ja, jb] = [(await a.json()) as Record<string, unknown>, (await b.json()) as Record<string, unknown>];
    const shape = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => [k, typeof v, typeof v === "string" ? v.replace(/[^_]+$/, "") : v]);
    expect(shape(ja).sort()).toEqual(shape(jb).sort());
    expect(ja).toMatchObject({ email: taken, role: "admin", invited_by: owner.ownerId });
    // Both invitees are mailed the same way.
    const [ma, mb] = [(await mailTo(taken))[0], (await mailTo(fresh))[0]];
    expect([ma.template, ma.subject]).toEqual([mb.template, mb.subject]);
  });

  it("a user of another account who accepts gets a clear 409; the invitation stays pending and works once that user is removed", async () => {
    const host = await createAccount();
    const elsewhere = await createAccount();
    // Someone who is already a member of another account...
    const person = await join(elsewhere.token, "member");
    // ...and, for the other case, another account's owner.
    const otherOwnerEmail = await emailOf(elsewhere.ownerId);
    expect((await invite(host.token, { email: person.user.email, role: "admin" })).status).toBe(201);
    expect((await invite(host.token, { email: otherOwnerEmail })).status).toBe(201);

    const ownerTry = await problem(await accept(await mailedInviteToken(otherOwnerEmail)));
    expect([ownerTry.status, ownerTry.code]).toEqual([409, "conflict"]);
    expect(ownerTry.detail).toMatch(/another account/);
    expect(ownerTry.detail).toMatch(/one account/);

    const token = await mailedInviteToken(person.user.email);
    const refused = await problem(await accept(token));
    expect([refused.status, refused.code]).toEqual([409, "conflict"]);
    // Nothing changed: still a member there, not here, and still signed in there.
    expect((await members(host.token)).map((m) => m.email)).not.toContain(person.user.email);
    expect((await call("/api/v1/account", { headers: withToken(person.token) })).status).toBe(200);

    // Removed from the other account, the same invitation now joins.
    expect((await call(`/api/v1/team/members/${person.user.id}`, { method: "DELETE", headers: withToken(elsewhere.token) })).status).toBe(204);
    const joined = await accept(token);
    expect(joined.status).toBe(200);
    expect(((await joined.json()) as { user: Member & { account_id: string } }).user).toMatchObject({
      email: person.user.email,
      role: "admin",
      account_id: host.accountId,
    });
  });

  it("the OpenAPI answer of an invitation has no invite_token", async () => {
    const doc = await publicDocument();
    const created = doc.paths["/api/v1/team/invitations"]?.post?.responses["201"]?.content?.["application/json"]?.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(created.properties).sort()).toEqual(["email", "expires_at", "id", "invited_by", "role"]);
    expect(JSON.stringify(created)).not.toContain("invite_token");
  });

  it("only an owner may invite an owner", async () => {
    const owner = await createAccount();
    const admin = await join(owner.token, "admin");
    expect((await problem(await invite(admin.token, { email: uniqueEmail(), role: "owner" }))).code).toBe("permission_denied");
    expect((await invite(admin.token, { email: uniqueEmail(), role: "admin" })).status).toBe(201);
    const co = await join(owner.token, "owner");
    expect(co.user.role).toBe("owner");
  });
});

describe("roles", () => {
  it("owner changes roles; admin cannot touch owners or grant owner; a member cannot change anything", async () => {
    const owner = await createAccount();
    const admin = await join(owner.token, "admin");
    const m = await join(owner.token, "member");
    const up = await patchRole(owner.token, m.user.id, "admin");
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ id: m.user.id, role: "admin" });
    expect((await patchRole(admin.token, m.user.id, "member")).status).toBe(200);
    expect((await problem(await patchRole(admin.token, owner.ownerId, "member"))).code).toBe("permission_denied");
    expect((await problem(await patchRole(admin.token, m.user.id, "owner"))).code).toBe("permission_denied");
    expect((await problem(await patchRole(m.token, admin.user.id, "member"))).code).toBe("permission_denied");
    expect((await problem(await patchRole(owner.token, m.user.id, "root"))).code).toBe("validation_failed");
    expect((await problem(await patchRole(owner.token, "usr_nobody", "admin"))).code).toBe("not_found");
    const stranger = await createAccount();
    expect((await problem(await patchRole(owner.token, stranger.ownerId, "member"))).code).toBe("not_found");
  });

  it("the last owner cannot be demoted; with a second owner, one may step down", async () => {
    const owner = await createAccount();
    const last = await problem(await patchRole(owner.token, owner.ownerId, "admin"));
    expect([last.status, last.code]).toEqual([409, "last_owner"]);
    const co = await join(owner.token, "owner");
    expect((await patchRole(owner.token, owner.ownerId, "admin")).status).toBe(200);
    expect((await problem(await patchRole(co.token, co.user.id, "member"))).code).toBe("last_owner");
  });

  it("two owners demoting each other at once leave exactly one owner", async () => {
    const owner = await createAccount();
    const co = await join(owner.token, "owner");
    const results = await Promise.all([patchRole(owner.token, co.user.id, "member"), patchRole(co.token, owner.ownerId, "member")]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const list = await members(owner.token).catch(() => members(co.token));
    expect(list.filter((x) => x.role === "owner")).toHaveLength(1);
  });
});

describe("removal", () => {
  it("answers 204; the removed user's token stops working at once and they leave the list", async () => {
    const owner = await createAccount();
    const m = await join(owner.token, "member");
    expect((await call("/api/v1/team/members", { headers: withToken(m.token) })).status).toBe(200);
    const res = await remove(owner.token, m.user.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await problem(await call("/api/v1/team/members", { headers: withToken(m.token) }))).code).toBe("invalid_credentials");
    expect((await members(owner.token)).map((x) => x.id)).not.toContain(m.user.id);
    expect((await problem(await remove(owner.token, m.user.id))).code).toBe("not_found");
  });

  it("an admin cannot remove an owner, a member cannot remove anyone, and the last owner cannot leave", async () => {
    const owner = await createAccount();
    const admin = await join(owner.token, "admin");
    const m = await join(owner.token, "member");
    expect((await problem(await remove(admin.token, owner.ownerId))).code).toBe("permission_denied");
    expect((await problem(await remove(m.token, admin.user.id))).code).toBe("permission_denied");
    const last = await problem(await remove(owner.token, owner.ownerId));
    expect([last.status, last.code]).toEqual([409, "last_owner"]);
    expect((await remove(admin.token, m.user.id)).status).toBe(204);
  });

  it("a removed member can be invited again as a new user; the old token stays dead", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("again");
    const first = await join(owner.token, "member", email);
    expect((await remove(owner.token, first.user.id)).status).toBe(204);
    const second = await join(owner.token, "admin", email);
    expect(second.user.id).not.toBe(first.user.id);
    expect(second.user).toMatchObject({ email, role: "admin" });
    expect((await call("/api/v1/team/members", { headers: withToken(second.token) })).status).toBe(200);
    expect((await call("/api/v1/team/members", { headers: withToken(first.token) })).status).toBe(401);
  });
});
