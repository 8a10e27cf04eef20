// Every D1 table, one export per file of this folder.
export * from "./core";
export * from "./webhooks";
export * from "./team";
export * from "./jobs";
export * from "./idempotency";
export * from "./sessions";
