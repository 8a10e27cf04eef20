import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// migrations/0005_idempotency.sql creates exactly this table.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** The first answer to a request sent with an Idempotency-Key, per scope (an account, or the operator). */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request as parsed (method, path, fields), so a multipart boundary does not count. */
    requestHash: text("request_hash").notNull(),
    state: text("state").notNull(), // running | done
    status: integer("status"),
    /** JSON object of the response headers that are replayed. */
    headers: text("headers"),
    body: text("body"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);
