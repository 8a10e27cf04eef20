// Every D1 table, one export per file of this folder.
export * from "./core";
