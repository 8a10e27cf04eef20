import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// migrations/0003_jobs.sql creates exactly this table.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** A tool call made with a key or JWT; the id is its request id. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    tool: text("tool").notNull(),
    operation: text("operation").notNull(),
    status: text("status").notNull(), // processing | completed | failed
    /** Credits the call cost in the end: 0 once a failure was refunded. */
    credits: integer("credits").notNull(),
    /** JSON array of the URLs of what the call stored. */
    outputUrls: text("output_urls").notNull().default("[]"),
    errorCode: text("error_code"),
    keyId: text("key_id"),
    userId: text("user_id"),
    createdAt: text("created_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [index("jobs_account").on(t.accountId, t.createdAt)],
);
