// The typed client in clients/typescript is generated from the Worker's
// OpenAPI document. This regenerates it in memory from the same function the
// /openapi.json route calls and fails when the committed files differ, so a
// route change cannot ship with a stale client.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildDocument, CLIENT_DIR, driftedFiles } from "../../scripts/client-generate.mjs";

test("clients/typescript matches the Worker's /openapi.json", { timeout: 120_000 }, async () => {
  const drifted = await driftedFiles();
  assert.deepEqual(drifted, [], `out of date: ${drifted.join(", ")}; run \`node scripts/client-generate.mjs\` and commit the result`);
});

test("the generated types name every documented operation", { timeout: 120_000 }, async () => {
  const doc = await buildDocument();
  const schema = readFileSync(join(CLIENT_DIR, "src", "schema.d.ts"), "utf8");
  for (const [path, item] of Object.entries(doc.paths)) {
    assert.ok(schema.includes(`"${path}": {`), `path ${path} missing from schema.d.ts`);
    for (const op of Object.values(item))
      if (op.operationId) assert.ok(schema.includes(`operations["${op.operationId}"]`), `operation ${op.operationId} missing`);
  }
});
