import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { METER_MIGRATIONS } from "../../src/billing/meter-do";
import { migrateDurableStorage, schemaVersion } from "../../src/db/durable-migrations";
import { DELIVERY_LOG_MIGRATIONS } from "../../src/webhooks/delivery-log";

// Issue #15: Durable Object SQLite tables carry a schema version and upgrade
// step by step, so an object deployed with an older schema can be migrated.
// Each test runs inside a real, fresh AccountMeter (whose constructor has
// already migrated it) and drives its storage directly.

function inFreshMeter<R>(fn: (storage: DurableObjectStorage) => R): Promise<R> {
  const stub = env.METER.get(env.METER.idFromName(`migrations-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_meter, state) => fn(state.storage));
}

const columns = (sql: SqlStorage, table: string) =>
  sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .map((c) => c.name);
const balance = (sql: SqlStorage) => sql.exec<{ balance: number }>("SELECT balance FROM meter WHERE id = 1").one().balance;

describe("Durable Object schema versions", () => {
  it("a new object starts at the newest version of its class", async () => {
    await inFreshMeter((storage) => {
      expect(schemaVersion(storage.sql)).toBe(METER_MIGRATIONS.length);
      expect(columns(storage.sql, "charges")).toContain("request_id");
    });
    const stub = env.WEBHOOK_ENDPOINT.get(env.WEBHOOK_ENDPOINT.idFromName(`migrations-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (endpoint, state) => {
      expect(await endpoint.list(1, null)).toEqual({ data: [], nextSeq: null });
      expect(schemaVersion(state.storage.sql)).toBe(DELIVERY_LOG_MIGRATIONS.length);
    });
  });

  it("an object from before versions adopts version 1 with its data, then takes later steps once", async () => {
    await inFreshMeter((storage) => {
      // What a deployed object looks like before this change: the tables, no version record.
      storage.sql.exec("DROP TABLE _schema_version");
      storage.sql.exec("UPDATE meter SET balance = 77 WHERE id = 1");
      const next = [...METER_MIGRATIONS, "ALTER TABLE grants ADD COLUMN note TEXT"];
      expect(migrateDurableStorage(storage, next)).toBe(METER_MIGRATIONS.length + 1);
      expect(balance(storage.sql)).toBe(77);
      expect(columns(storage.sql, "grants")).toContain("note");
      // Run again (the next start of the object): nothing is applied twice.
      expect(migrateDurableStorage(storage, next)).toBe(METER_MIGRATIONS.length + 1);
    });
  });

  it("a failing step rolls back whole and leaves the version where it was", async () => {
    await inFreshMeter((storage) => {
      const before = schemaVersion(storage.sql);
      const broken = [...METER_MIGRATIONS, "CREATE TABLE half_done (x INTEGER); ALTER TABLE no_such_table ADD COLUMN y TEXT"];
      expect(() => migrateDurableStorage(storage, broken)).toThrow(/no_such_table/);
      expect(schemaVersion(storage.sql)).toBe(before);
      expect(storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'half_done'").toArray()).toEqual([]);
    });
  });

  it("refuses storage newer than the code instead of guessing", async () => {
    await inFreshMeter((storage) => {
      storage.sql.exec("UPDATE _schema_version SET version = ?", METER_MIGRATIONS.length + 3);
      expect(() => migrateDurableStorage(storage, METER_MIGRATIONS)).toThrow(/newer than this code/);
    });
  });
});
