// `npm run test:unit [-- vitest args]`: the workerd suite in its two groups
// (vitest.config.ts says why): files that share an isolate, then files that
// each get their own. Arguments (file filters, -t, --maxWorkers) go to both;
// a filter that matches files of one group only is not a failure of the other.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const vitest = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
let failed = false;
for (const group of ["shared", "own-isolate"]) {
  console.log(`\n=== vitest: ${group} isolate ===`);
  const run = spawnSync(process.execPath, [vitest, "run", "--passWithNoTests", ...args], {
    stdio: "inherit",
    env: { ...process.env, TEST_GROUP: group },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
