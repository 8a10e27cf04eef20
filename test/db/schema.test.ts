import { env } from "cloudflare:workers";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

// Issue #15: the drizzle schema (what the code queries) and migrations/*.sql
// (what D1 holds) are written by hand in two places, so this checks them
// against each other: after the migrations, D1 has exactly the tables,
// columns, nullability, primary keys and indexes the drizzle schema declares.

const tables = (Object.values(schema) as unknown[]).filter(
  (v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
);

interface Column {
  name: string;
  notnull: number;
  pk: number;
}
interface Index {
  name: string;
  unique: number;
  origin: string;
}

async function all<T>(sql: string): Promise<T[]> {
  return (await env.DB.prepare(sql).all<T>()).results;
}

describe("drizzle schema and SQL migrations", () => {
  it("D1 has exactly the drizzle tables (besides its own bookkeeping)", async () => {
    const inD1 = (await all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'"))
      .map((t) => t.name)
      .filter((n) => !n.startsWith("sqlite_") && !n.startsWith("_cf_") && n !== "d1_migrations");
    expect(inD1.sort()).toEqual(tables.map((t) => getTableConfig(t).name).sort());
  });

  for (const table of tables) {
    const config = getTableConfig(table);
    it(`${config.name}: columns, nullability, primary key and indexes match`, async () => {
      const columns = await all<Column>(`PRAGMA table_info(${config.name})`);
      const fromSql = columns
        .map((c) => ({ name: c.name, notNull: c.notnull === 1 || c.pk > 0, primary: c.pk > 0 }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const compositeKey = new Set(config.primaryKeys.flatMap((k) => k.columns.map((c) => c.name)));
      const fromDrizzle = config.columns
        .map((c) => ({ name: c.name, notNull: c.notNull || c.primary || compositeKey.has(c.name), primary: c.primary || compositeKey.has(c.name) }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(fromSql).toEqual(fromDrizzle);

      const indexes = (await all<Index>(`PRAGMA index_list(${config.name})`)).filter((i) => i.origin === "c");
      const sqlIndexes = indexes.map((i) => ({ name: i.name, unique: i.unique === 1 })).sort((a, b) => a.name.localeCompare(b.name));
      const drizzleIndexes = config.indexes.map((i) => ({ name: i.config.name, unique: i.config.unique })).sort((a, b) => a.name.localeCompare(b.name));
      expect(sqlIndexes).toEqual(drizzleIndexes);
    });
  }
});
