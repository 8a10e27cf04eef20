import { eq } from "drizzle-orm";
import { idempotent, operatorScope } from "../http/idempotency";
import { Hono } from "hono";
import { z } from "zod";
import { issueToken } from "../auth/jwt";
import { meterFor, recordLedger } from "../billing/meter";
import { PLAN_NAMES, type PlanName } from "../config";
import { database, schema } from "../db/client";
import { ApiError } from "../errors";
import type { AppEnv } from "../http/context";
import { jsonBody } from "../http/guards";
import { constantTimeEqual } from "../secrets/encoding";
import { settingsOf } from "../settings";
import { emitEvent } from "../webhooks/emit";
import { memoryReport } from "../runtime/memory";
import { heapReport } from "../engines/heap";
import { mupdfInstanceStats } from "../engines/mupdf/loader";
import { flushOutbox, listOutbox } from "../mail/outbox";
import { loadAccount } from "./accounts";

const outboxQuery = z.object({
  status: z.enum(["unsent", "sent", "failed", "all"]).default("all"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const planField = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]);

const tokenRequest = z.object({
  ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional(),
});

const createAccount = z.object({
  name: z.string().trim().min(1).max(200),
  plan: planField.default("free"),
  credits: z.number().int().min(0).default(0),
  owner_email: z.string().email(),
});

/**
 * Operator API (decisions.md): bootstrap, support and tests. Answers 404 when
 * ADMIN_TOKEN is unset, so an unconfigured deployment does not reveal it.
 */
export const adminApi = new Hono<AppEnv>()
  .use("*", async (c, next) => {
    const token = settingsOf(c.env).ADMIN_TOKEN;
    if (!token) throw new ApiError("not_found", "Not found.");
    const given = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
    if (!constantTimeEqual(given, token)) throw new ApiError("unauthorized", "The operator token is missing or wrong.");
    await next();
  })
  .post("/accounts", idempotent(operatorScope), async (c) => {
    const body = await jsonBody(c, createAccount);
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
  })
  .get("/outbox", async (c) => {
    const query = outboxQuery.safeParse(c.req.query());
    if (!query.success) throw new ApiError("validation_failed", "status must be unsent, sent, failed or all; limit 1 to 100.");
    return c.json({ data: await listOutbox(c.env, query.data.status, query.data.limit) });
  })
  .post("/outbox/flush", async (c) => c.json(await flushOutbox(c.env)))
  // The memory of the isolate that answers (docs/memory.md): heaps by engine, their total and peak, the budget calls are admitted against.
  .get("/runtime", (c) => c.json({ wasm_heaps: heapReport(), ...memoryReport(), mupdf: mupdfInstanceStats() }))
  .get("/accounts/:id", async (c) => c.json(await loadAccount(c.env, c.req.param("id"))))
  .patch("/accounts/:id", async (c) => {
    const { plan } = await jsonBody(c, z.object({ plan: planField }));
    const id = c.req.param("id");
    const before = await loadAccount(c.env, id);
    await database(c.env.DB).update(schema.accounts).set({ plan }).where(eq(schema.accounts.id, id));
    if (before.plan !== plan) await emitEvent(c.env, id, "subscription.updated", { previous_plan: before.plan, plan });
    return c.json(await loadAccount(c.env, id));
  })
  .post("/accounts/:id/credits", idempotent(operatorScope), async (c) => {
    const { amount } = await jsonBody(c, z.object({ amount: z.number().int() }));
    const id = c.req.param("id");
    await loadAccount(c.env, id);
    await grant(c.env, id, amount, "operator adjustment");
    return c.json(await loadAccount(c.env, id));
  })
  .post("/accounts/:id/payments", idempotent(operatorScope), async (c) => {
    const body = await jsonBody(
      c,
      z.object({ payment_id: z.string().min(1).max(200), amount_cents: z.number().int().min(0), credits: z.number().int().min(1) }),
    );
    const id = c.req.param("id");
    await loadAccount(c.env, id);
    const db = database(c.env.DB);
    const inserted = await db
      .insert(schema.payments)
      .values({ paymentId: body.payment_id, accountId: id, amountCents: body.amount_cents, credits: body.credits })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) {
      // Idempotent on payment_id: a replay changes nothing and emits nothing.
      return c.json({ payment_id: body.payment_id, duplicate: true, account: await loadAccount(c.env, id) }, 200);
    }
    await grant(c.env, id, body.credits, `payment ${body.payment_id}`, `payment:${body.payment_id}`);
    await emitEvent(c.env, id, "invoice.paid", { payment_id: body.payment_id, amount_cents: body.amount_cents, credits: body.credits });
    return c.json({ payment_id: body.payment_id, duplicate: false, account: await loadAccount(c.env, id) }, 201);
  })
  // Reports a failed payment attempt: emits invoice.payment_failed; nothing is stored or charged.
  .post("/accounts/:id/payment-failures", async (c) => {
    const body = await jsonBody(
      c,
      z.object({ payment_id: z.string().min(1).max(200), amount_cents: z.number().int().min(0), reason: z.string().max(500).optional() }),
    );
    const id = c.req.param("id");
    await loadAccount(c.env, id);
    const data = { payment_id: body.payment_id, amount_cents: body.amount_cents, reason: body.reason ?? null };
    await emitEvent(c.env, id, "invoice.payment_failed", data);
    return c.json({ event: "invoice.payment_failed", ...data }, 202);
  })
  .post("/users/:id/tokens", async (c) => {
    const hasBody = (c.req.header("Content-Length") ?? "0") !== "0";
    const { ttl_seconds } = hasBody ? await jsonBody(c, tokenRequest) : { ttl_seconds: undefined };
    const rows = await database(c.env.DB)
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, c.req.param("id")))
      .limit(1);
    const user = rows[0];
    if (!user || user.removedAt) throw new ApiError("not_found", "No such user.");
    return c.json({ token: await issueToken(c.env, user.id, user.accountId, ttl_seconds) });
  });

async function grant(env: AppEnv["Bindings"], accountId: string, credits: number, reason: string, ref?: string): Promise<void> {
  const result = await meterFor(env, accountId).grant(credits, ref);
  if (!result.applied) return;
  await recordLedger(env, { accountId, kind: "grant", credits, balanceAfter: result.balance, reason, requestId: ref });
}
