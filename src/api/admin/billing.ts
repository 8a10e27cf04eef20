import { z } from "zod";
import { database, schema } from "../../db/client";
import { defineRoute } from "../../http/route";
import { emitEvent } from "../../webhooks/emit";
import { accountView, loadAccount } from "../accounts";
import { grant } from "./grant";

// Operator API, credits and payments: what a billing system calls.

const tags = ["operator"];
const accountParams = z.object({ id: z.string().describe("The account's id (acc_...).") });

const adjustCredits = defineRoute({
  id: "adminAdjustCredits",
  method: "post",
  path: "/admin/v1/accounts/{id}/credits",
  tags,
  summary: "Add or remove credits",
  description: "A negative amount removes credits.",
  auth: "admin",
  params: accountParams,
  body: z.object({ amount: z.number().int() }),
  idempotent: true,
  problems: ["not_found"],
  responses: { 200: { description: "The account", schema: accountView } },
  handler: async (c, { params: { id }, body: { amount } }) => {
    await loadAccount(c.env, id);
    await grant(c.env, id, amount, "operator adjustment");
    return c.json(await loadAccount(c.env, id));
  },
});

const paymentResult = z.object({ payment_id: z.string(), duplicate: z.boolean(), account: accountView });

const recordPayment = defineRoute({
  id: "adminRecordPayment",
  method: "post",
  path: "/admin/v1/accounts/{id}/payments",
  tags,
  summary: "Record a payment and add its credits",
  description: "Idempotent on payment_id: the same payment again answers 200 with duplicate: true and changes nothing. Emits invoice.paid.",
  auth: "admin",
  params: accountParams,
  body: z.object({ payment_id: z.string().min(1).max(200), amount_cents: z.number().int().min(0), credits: z.number().int().min(1) }),
  idempotent: true,
  problems: ["not_found"],
  responses: {
    200: { description: "A payment already recorded", schema: paymentResult },
    201: { description: "The payment, recorded", schema: paymentResult },
  },
  handler: async (c, { params: { id }, body }) => {
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
  },
});

const reportPaymentFailure = defineRoute({
  id: "adminReportPaymentFailure",
  method: "post",
  path: "/admin/v1/accounts/{id}/payment-failures",
  tags,
  summary: "Report a failed payment attempt",
  description: "Emits invoice.payment_failed; nothing is stored or charged.",
  auth: "admin",
  params: accountParams,
  body: z.object({ payment_id: z.string().min(1).max(200), amount_cents: z.number().int().min(0), reason: z.string().max(500).optional() }),
  problems: ["not_found"],
  responses: {
    202: {
      description: "The event emitted",
      schema: z.object({ event: z.literal("invoice.payment_failed"), payment_id: z.string(), amount_cents: z.number().int(), reason: z.string().nullable() }),
    },
  },
  handler: async (c, { params: { id }, body }) => {
    await loadAccount(c.env, id);
    const data = { payment_id: body.payment_id, amount_cents: body.amount_cents, reason: body.reason ?? null };
    await emitEvent(c.env, id, "invoice.payment_failed", data);
    return c.json({ event: "invoice.payment_failed", ...data }, 202);
  },
});

export const ADMIN_BILLING_ROUTES = [adjustCredits, recordPayment, reportPaymentFailure];
