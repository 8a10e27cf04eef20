// Schema versions for the SQLite storage of Durable Objects (issue #15).
//
// D1 is migrated by `wrangler d1 migrations apply` from migrations/*.sql, but
// a Durable Object's SQLite database exists once per object and is only ever
// touched by that object's code, so each class carries its own ordered list of
// migrations and applies the missing ones when an instance starts. Entry N is
// schema version N+1; a list only ever grows at its end, and an entry, once
// deployed, is never edited (objects that ran it will not run it again).
//
// Version 1 of each class is written with IF NOT EXISTS: objects created
// before versions were recorded already hold those tables and adopt them as
// version 1 without losing data.

export type DurableMigrations = readonly string[];

interface SqlHost {
  sql: SqlStorage;
  transactionSync<T>(fn: () => T): T;
}

const VERSION_TABLE = "CREATE TABLE IF NOT EXISTS _schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)";

export function schemaVersion(sql: SqlStorage): number {
  sql.exec(VERSION_TABLE);
  const row = sql.exec<{ version: number }>("SELECT version FROM _schema_version WHERE id = 1").toArray()[0];
  return row ? row.version : 0;
}

/**
 * Brings this object's storage to the newest version. Each step runs in a
 * transaction with its version bump, so a failing step leaves the object at
 * the version before it (and the error surfaces from the constructor) rather
 * than half-migrated.
 */
export function migrateDurableStorage(storage: SqlHost, migrations: DurableMigrations): number {
  let version = schemaVersion(storage.sql);
  if (version > migrations.length) {
    // Code older than the data (a rollback): refuse to guess at the schema.
    throw new Error(`Durable Object storage is at schema version ${version}, newer than this code's ${migrations.length}.`);
  }
  while (version < migrations.length) {
    const next = version + 1;
    storage.transactionSync(() => {
      storage.sql.exec(migrations[next - 1]);
      storage.sql.exec("INSERT INTO _schema_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version", next);
    });
    version = next;
  }
  return version;
}
