import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { hashKeySecret } from "../auth/api-keys";
import { toBase64Url } from "../secrets/encoding";
import { issueToken } from "../auth/jwt";
import type { Role } from "../auth/principal";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { linkOrigin } from "../mail/link-origin";
import { defineRoute } from "../http/route";
import { sendMail } from "../mail/mailer";
import { invitationMail } from "../mail/templates";
import { emitEvent } from "../webhooks/emit";

// Team members and invitations. The rules, enforced here and documented in
// docs/reference/accounts-and-keys.md (Team):
// - Listing members needs any dashboard user; every change needs manage_team.
// - Only an owner may grant the owner role, or change or remove an owner.
// - The account always keeps an owner: the last one cannot be demoted or
//   removed (409 last_owner), checked inside the same UPDATE so two
//   concurrent demotions cannot both pass.
// - Removal sets users.removed_at; identify() refuses that user's JWT at once.
// - The invite token is a credential of the invitee's mailbox: it goes out
//   by e-mail only, never in the inviter's answer, so holding it proves the
//   address. The 201 is the same whether or not the address
//   has a user in another account: the inviter learns nothing about other
//   accounts. An active member of the inviter's own account is a 409; the
//   inviter can list them anyway.
// - A user belongs to exactly one account (users.account_id, e-mail unique).
//   An invitee whose address already has an active user in another account
//   gets 409 conflict when accepting, told why; the invitation stays
//   pending, so it can be accepted once that user has been removed. A
//   removed user's e-mail can join, and their old row keeps its history.

const ROLES = ["owner", "admin", "member"] as const satisfies readonly Role[];
const INVITE_TTL_MS = 7 * 86_400_000;
const TOKEN_PREFIX = "inv_";

const inviteSchema = z.object({ email: z.string().trim().toLowerCase().email(), role: z.enum(ROLES).default("member") });
const acceptSchema = z.object({ invite_token: z.string().min(10).max(200) });
const roleSchema = z.object({ role: z.enum(ROLES) });

type UserRow = typeof schema.users.$inferSelect;

function memberView(u: UserRow) {
  return { id: u.id, email: u.email, role: u.role, created_at: u.createdAt };
}

async function activeMember(env: Env, accountId: string, userId: string): Promise<UserRow> {
  const u = schema.users;
  const rows = await database(env.DB)
    .select()
    .from(u)
    .where(and(eq(u.id, userId), eq(u.accountId, accountId), isNull(u.removedAt)))
    .limit(1);
  if (!rows[0]) throw new ApiError("not_found", "No such member in your team.");
  return rows[0];
}

/**
 * The invitee's address has no active user, or accepting would need a second
 * account for one user (users.account_id): 409, told only to the invitee,
 * who proved the address with the mailed token. The invitation stays pending.
 */
async function requireFreeAddress(env: Env, email: string, accountId: string): Promise<void> {
  const u = schema.users;
  const rows = await database(env.DB)
    .select({ accountId: u.accountId })
    .from(u)
    .where(and(eq(u.email, email), isNull(u.removedAt)))
    .limit(1);
  const existing = rows[0];
  if (!existing) return;
  if (existing.accountId === accountId) throw new ApiError("conflict", `${email} is already a member of this team; sign in instead.`);
  throw new ApiError(
    "conflict",
    `${email} already has a user in another account, and a user belongs to one account only. ` +
      "Ask that account's owner to remove you, then accept this invitation again before it expires.",
  );
}

/** Only owners touch the owner role, in either direction. */
function requireOwnerFor(actorRole: Role, targetRole: string, newRole?: Role): void {
  if (actorRole !== "owner" && (targetRole === "owner" || newRole === "owner")) {
    throw new ApiError("permission_denied", "Only an owner can grant the owner role or change or remove an owner.");
  }
}

/** "This user is not the account's last owner", as SQL for the guarded UPDATEs. */
const NOT_LAST_OWNER = `(role <> 'owner' OR (SELECT COUNT(*) FROM users o WHERE o.account_id = users.account_id AND o.role = 'owner' AND o.removed_at IS NULL) > 1)`;

const tags = ["team"];

const memberSchema = z.object({ id: z.string(), email: z.string(), role: z.enum(ROLES), created_at: z.string() });
const memberParams = z.object({ userId: z.string().describe("The member's user id (usr_...).") });

const listMembers = defineRoute({
  id: "listTeamMembers",
  method: "get",
  path: "/api/v1/team/members",
  tags,
  summary: "List the account's active members",
  auth: "jwt",
  responses: { 200: { description: "Members, oldest first", schema: z.object({ data: z.array(memberSchema) }) } },
  handler: async (c, { caller: user }) => {
    const u = schema.users;
    const rows = await database(c.env.DB)
      .select()
      .from(u)
      .where(and(eq(u.accountId, user.accountId), isNull(u.removedAt)))
      .orderBy(u.createdAt, u.id);
    return c.json({ data: rows.map(memberView) });
  },
});

const invite = defineRoute({
  id: "inviteTeamMember",
  method: "post",
  path: "/api/v1/team/invitations",
  tags,
  summary: "Invite someone by e-mail",
  description:
    "Replaces any pending invitation for the same address and e-mails the invitee a console link holding the invitation token; the invitee accepts with it within 7 days. " +
    "The token is never in this answer: it goes to the invitee's mailbox only. The answer is the same whether or not the address has a user in another account; " +
    "such an invitee is told at acceptance (409), since a user belongs to one account. An active member of this account is 409.",
  auth: "jwt:manage_team",
  body: inviteSchema,
  problems: ["conflict"],
  responses: {
    201: {
      description: "The invitation (without its token)",
      schema: z.object({ id: z.string(), email: z.string(), role: z.enum(ROLES), invited_by: z.string(), expires_at: z.string() }),
    },
  },
  handler: async (c, { caller: actor, body }) => {
    requireOwnerFor(actor.role, "member", body.role);
    const db = database(c.env.DB);
    const u = schema.users;
    // Only this account's members are looked at: whether the address has a user elsewhere must not change the answer.
    const member = await db
      .select({ id: u.id })
      .from(u)
      .where(and(eq(u.email, body.email), eq(u.accountId, actor.accountId), isNull(u.removedAt)))
      .limit(1);
    if (member[0]) throw new ApiError("conflict", `${body.email} is already a member of this team.`);

    const token = TOKEN_PREFIX + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    const id = `inv_${crypto.randomUUID().replace(/-/g, "")}`;
    const expiresAt = new Date(Date.now() + INVITE_TTL_MS).toISOString();
    const inv = schema.teamInvitations;
    // A new invitation replaces any pending one for the same address.
    await db.batch([
      db
        .update(inv)
        .set({ revokedAt: new Date().toISOString() })
        .where(and(eq(inv.accountId, actor.accountId), eq(inv.email, body.email), isNull(inv.acceptedAt), isNull(inv.revokedAt))),
      db.insert(inv).values({
        id,
        accountId: actor.accountId,
        email: body.email,
        role: body.role,
        tokenHash: await hashKeySecret(token),
        invitedBy: actor.userId,
        expiresAt,
      }),
    ]);
    const data = { invitation_id: id, email: body.email, role: body.role, invited_by: actor.userId, expires_at: expiresAt };
    await emitEvent(c.env, actor.accountId, "team.member.invited", data);
    await sendMail(c.env, [invitationMail(linkOrigin(c.env, c.req.url), body.email, actor.accountId, body.role, token, expiresAt)]);
    return c.json({ id, email: body.email, role: body.role, invited_by: actor.userId, expires_at: expiresAt }, 201);
  },
});

const accept = defineRoute({
  id: "acceptTeamInvitation",
  method: "post",
  path: "/api/v1/team/invitations/accept",
  tags,
  summary: "Accept an invitation",
  description:
    "No credentials: the invitation token, from the invitation e-mail, is the credential. Answers the new user and their dashboard JWT. " +
    "409 conflict when the address already has an active user (in this or another account): a user belongs to one account; the invitation then stays pending.",
  auth: "public",
  body: acceptSchema,
  problems: ["not_found", "conflict", "gone"],
  responses: {
    200: {
      description: "The new user and a JWT",
      schema: z.object({
        user: z.object({ id: z.string(), email: z.string(), role: z.enum(ROLES), account_id: z.string() }),
        token: z.string(),
      }),
    },
  },
  handler: async (c, { body: { invite_token } }) => {
    const inv = schema.teamInvitations;
    const db = database(c.env.DB);
    const row = (
      await db
        .select()
        .from(inv)
        .where(eq(inv.tokenHash, await hashKeySecret(invite_token)))
        .limit(1)
    )[0];
    if (!row) throw new ApiError("not_found", "No such invitation.");
    const now = new Date().toISOString();
    if (row.acceptedAt || row.revokedAt || row.expiresAt <= now) throw new ApiError("gone", "This invitation was already used, replaced or has expired.");
    await requireFreeAddress(c.env, row.email, row.accountId);

    const userId = `usr_${crypto.randomUUID().replace(/-/g, "")}`;
    let results: D1Result[];
    try {
      // Atomic: claim the invitation, free a removed user's address, create the user.
      results = await c.env.DB.batch([
        c.env.DB.prepare(
          `UPDATE team_invitations SET accepted_at = ?1, accepted_user_id = ?2
              WHERE id = ?3 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?1`,
        ).bind(now, userId, row.id),
        c.env.DB.prepare(
          `UPDATE users SET email = id || '@removed.invalid'
              WHERE removed_at IS NOT NULL AND email = (SELECT email FROM team_invitations WHERE id = ?1 AND accepted_user_id = ?2)`,
        ).bind(row.id, userId),
        c.env.DB.prepare(
          `INSERT INTO users (id, account_id, email, role)
             SELECT ?2, account_id, email, role FROM team_invitations WHERE id = ?1 AND accepted_user_id = ?2`,
        ).bind(row.id, userId),
      ]);
    } catch (err) {
      // The same conflict, when the address got a user between the check above and this batch.
      if (String(err).includes("UNIQUE")) throw new ApiError("conflict", `${row.email} already has a user; a user belongs to one account.`);
      throw err;
    }
    if (!results[2].meta.changes) throw new ApiError("gone", "This invitation was already used, replaced or has expired.");

    await emitEvent(c.env, row.accountId, "team.member.joined", { user_id: userId, email: row.email, role: row.role, invitation_id: row.id });
    return c.json({
      user: { id: userId, email: row.email, role: row.role, account_id: row.accountId },
      token: await issueToken(c.env, userId, row.accountId),
    });
  },
});

const changeRole = defineRoute({
  id: "updateTeamMember",
  method: "patch",
  path: "/api/v1/team/members/{userId}",
  tags,
  summary: "Change a member's role",
  description: "Only an owner grants the owner role or changes an owner; the last owner cannot be demoted (409 last_owner).",
  auth: "jwt:manage_team",
  params: memberParams,
  body: roleSchema,
  problems: ["not_found", "last_owner"],
  responses: { 200: { description: "The member", schema: memberSchema } },
  handler: async (c, { caller: actor, params, body: { role } }) => {
    const target = await activeMember(c.env, actor.accountId, params.userId);
    requireOwnerFor(actor.role, target.role, role);
    if (target.role === role) return c.json(memberView(target));
    const result = await c.env.DB.prepare(
      `UPDATE users SET role = ?1 WHERE id = ?2 AND account_id = ?3 AND removed_at IS NULL AND (?1 = 'owner' OR ${NOT_LAST_OWNER})`,
    )
      .bind(role, target.id, actor.accountId)
      .run();
    if (!result.meta.changes) throw new ApiError("last_owner", "The account's last owner cannot be demoted; make someone else owner first.");
    await emitEvent(c.env, actor.accountId, "team.member.role_changed", {
      user_id: target.id,
      email: target.email,
      previous_role: target.role,
      role,
      changed_by: actor.userId,
    });
    return c.json(memberView({ ...target, role }));
  },
});

const remove = defineRoute({
  id: "removeTeamMember",
  method: "delete",
  path: "/api/v1/team/members/{userId}",
  tags,
  summary: "Remove a member",
  description: "Their dashboard JWT stops working at once; the last owner cannot be removed (409 last_owner).",
  auth: "jwt:manage_team",
  params: memberParams,
  problems: ["not_found", "last_owner"],
  responses: { 204: { description: "Removed" } },
  handler: async (c, { caller: actor, params }) => {
    const target = await activeMember(c.env, actor.accountId, params.userId);
    requireOwnerFor(actor.role, target.role);
    const result = await c.env.DB.prepare(`UPDATE users SET removed_at = ?1 WHERE id = ?2 AND account_id = ?3 AND removed_at IS NULL AND ${NOT_LAST_OWNER}`)
      .bind(new Date().toISOString(), target.id, actor.accountId)
      .run();
    if (!result.meta.changes) throw new ApiError("last_owner", "The account's last owner cannot be removed.");
    await emitEvent(c.env, actor.accountId, "team.member.removed", { user_id: target.id, email: target.email, role: target.role, removed_by: actor.userId });
    return c.body(null, 204);
  },
});

export const TEAM_ROUTES = [listMembers, invite, accept, changeRole, remove];
