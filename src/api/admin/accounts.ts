import { eq } from "drizzle-orm";
import { z } from "zod";
import { issueToken } from "../../auth/jwt";
import { database, schema } from "../../db/client";
import { ApiError } from "../../errors";
import { defineRoute } from "../../http/route";
import { emitEvent } from "../../webhooks/emit";
import { planName } from "../../config";
import { accountView, loadAccount } from "../accounts";
import { grant } from "./grant";

// Operator API, accounts (docs/reference/accounts-and-keys.md, Operator API): bootstrap, support and tests.

const tags = ["operator"];
const accountParams = z.object({ id: z.string().describe("The account's id (acc_...).") });

const createAccountSchema = z.object({
  name: z.string().trim().min(1).max(200),
  plan: planName.default("free"),
  credits: z.number().int().min(0).default(0),
  owner_email: z.string().email(),
});

const createAccount = defineRoute({
  id: "adminCreateAccount",
  method: "post",
  path: "/admin/v1/accounts",
  tags,
  summary: "Create an account with its owner",
  description: "Answers the owner's dashboard JWT, from which API keys are created.",
  auth: "admin",
  body: createAccountSchema,
  idempotent: true,
  problems: ["conflict"],
  responses: {
    201: {
      description: "The account, its owner and the owner's JWT",
      schema: z.object({
        account: accountView,
        owner: z.object({ id: z.string(), email: z.string(), role: z.literal("owner") }),
        token: z.string(),
      }),
    },
  },
  handler: async (c, { body }) => {
    const db = database(c.env.DB);
    const email = body.owner_email.toLowerCase();
    const taken = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)).limit(1);
    if (taken[0]) throw new ApiError("conflict", `A user with e-mail ${email} already exists.`);
    const accountId = `acc_${crypto.randomUUID().replace(/-/g, "")}`;
    const userId = `usr_${crypto.randomUUID().replace(/-/g, "")}`;
    await db.batch([
      db.insert(schema.accounts).values({ id: accountId, name: body.name, plan: body.plan }),
      db.insert(schema.users).values({ id: userId, accountId, email, role: "owner" }),
    ]);
    if (body.credits > 0) await grant(c.env, accountId, body.credits, "initial credits");
    return c.json(
      {
        account: await loadAccount(c.env, accountId),
        owner: { id: userId, email, role: "owner" },
        token: await issueToken(c.env, userId, accountId),
      },
      201,
    );
  },
});

const getAccount = defineRoute({
  id: "adminGetAccount",
  method: "get",
  path: "/admin/v1/accounts/{id}",
  tags,
  summary: "An account and its balance",
  auth: "admin",
  params: accountParams,
  problems: ["not_found"],
  responses: { 200: { description: "The account", schema: accountView } },
  handler: async (c, { params }) => c.json(await loadAccount(c.env, params.id)),
});

const changePlan = defineRoute({
  id: "adminUpdateAccount",
  method: "patch",
  path: "/admin/v1/accounts/{id}",
  tags,
  summary: "Change an account's plan",
  description: "Emits subscription.updated when the plan changes.",
  auth: "admin",
  params: accountParams,
  body: z.object({ plan: planName }),
  problems: ["not_found"],
  responses: { 200: { description: "The account", schema: accountView } },
  handler: async (c, { params: { id }, body: { plan } }) => {
    const before = await loadAccount(c.env, id);
    await database(c.env.DB).update(schema.accounts).set({ plan }).where(eq(schema.accounts.id, id));
    if (before.plan !== plan) await emitEvent(c.env, id, "subscription.updated", { previous_plan: before.plan, plan });
    return c.json(await loadAccount(c.env, id));
  },
});

const tokenRequest = z.object({
  ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional(),
});

const issueUserToken = defineRoute({
  id: "adminIssueUserToken",
  method: "post",
  path: "/admin/v1/users/{id}/tokens",
  tags,
  summary: "Issue a dashboard JWT for a user",
  description: "The body may be left out; the token then lives the default time.",
  auth: "admin",
  params: z.object({ id: z.string().describe("The user's id (usr_...).") }),
  body: tokenRequest,
  bodyOptional: true,
  problems: ["not_found"],
  responses: { 200: { description: "The JWT", schema: z.object({ token: z.string() }) } },
  handler: async (c, { params, body: { ttl_seconds } }) => {
    const rows = await database(c.env.DB).select().from(schema.users).where(eq(schema.users.id, params.id)).limit(1);
    const user = rows[0];
    if (!user || user.removedAt) throw new ApiError("not_found", "No such user.");
    return c.json({ token: await issueToken(c.env, user.id, user.accountId, ttl_seconds) });
  },
});

export const ADMIN_ACCOUNT_ROUTES = [createAccount, getAccount, changePlan, issueUserToken];
