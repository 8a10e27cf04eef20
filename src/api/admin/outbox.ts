import { z } from "zod";
import { defineRoute } from "../../http/route";
import { flushOutbox, listOutbox } from "../../mail/outbox";

// Operator API, the e-mail outbox (alerts to account owners).

const tags = ["operator"];

const outboxMessage = z.object({
  id: z.number().int(),
  account_id: z.string(),
  to: z.string(),
  template: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  message_id: z.string().nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
});

const list = defineRoute({
  id: "adminListOutbox",
  method: "get",
  path: "/admin/v1/outbox",
  tags,
  summary: "E-mails queued or sent, newest first",
  auth: "admin",
  query: z.object({
    status: z.enum(["unsent", "sent", "failed", "all"]).default("all"),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  }),
  responses: { 200: { description: "Messages", schema: z.object({ data: z.array(outboxMessage) }) } },
  handler: async (c, { query }) => c.json({ data: await listOutbox(c.env, query.status, query.limit) }),
});

const flush = defineRoute({
  id: "adminFlushOutbox",
  method: "post",
  path: "/admin/v1/outbox/flush",
  tags,
  summary: "Send the unsent e-mails now",
  auth: "admin",
  responses: {
    200: {
      description: "What was sent",
      schema: z.object({
        sent: z.number().int(),
        failed: z.number().int(),
        skipped: z.literal("no_sender").optional().describe("Set when no sender is configured."),
      }),
    },
  },
  handler: async (c) => c.json(await flushOutbox(c.env)),
});

export const ADMIN_OUTBOX_ROUTES = [list, flush];
