// `npm run dev` passes the user's wrangler flags through (issue #14:
// `npm run dev -- --ip 0.0.0.0` failed, because the script always added its
// own --ip and wrangler refuses a flag given twice).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { devArgs } from "../../scripts/dev-args.mjs";
import { freePort, ROOT } from "./server.mjs";

test("dev arguments: defaults only for flags the user did not give", () => {
  assert.deepEqual(devArgs([]), ["--ip", "127.0.0.1", "--port", "8787"]);
  assert.deepEqual(devArgs(["--ip", "0.0.0.0"]), ["--port", "8787", "--ip", "0.0.0.0"]);
  assert.deepEqual(devArgs(["--ip=0.0.0.0", "--port=9000"]), ["--ip=0.0.0.0", "--port=9000"]);
  assert.deepEqual(devArgs(["--port", "8799", "--var", "KEY:VALUE"]), ["--ip", "127.0.0.1", "--port", "8799", "--var", "KEY:VALUE"]);
  // An address that merely contains the text is not the flag.
  assert.deepEqual(devArgs(["--var", "X:--ip"]), ["--ip", "127.0.0.1", "--port", "8787", "--var", "X:--ip"]);
});

test("npm run dev -- --ip 0.0.0.0 starts and serves", { timeout: 120_000 }, async () => {
  const port = await freePort();
  // The script writes .dev.vars when it is missing; the other e2e servers
  // would read it, so a file this test made goes again.
  const devVars = join(ROOT, ".dev.vars");
  const hadDevVars = existsSync(devVars);
  const child = spawn(process.execPath, [join(ROOT, "scripts", "dev.mjs"), "--ip", "0.0.0.0", "--port", String(port), "--show-interactive-dev-session=false"], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const s of [child.stdout, child.stderr]) s.on("data", (c) => (output = (output + c).slice(-5000)));
  try {
    const deadline = Date.now() + 90_000;
    let status = 0;
    while (Date.now() < deadline && child.exitCode === null && status !== 200) {
      status = await fetch(`http://127.0.0.1:${port}/`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(status, 200, `wrangler dev did not serve on 0.0.0.0:${port}:\n${output}`);
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
    if (!hadDevVars) rmSync(devVars, { force: true });
  }
});
