// Starts the real, bundled `wrangler dev` (as deployed) on a free port with
// its own state folder, applies the D1 migrations first, and stops it by its
// process group. Used by the e2e tests (node:test) and by `npm run bench`.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_NOTICE, CHROMIUM_REQUIRED, prepareChrome } from "../../scripts/chrome-shim.mjs";
import { CORPUS_AVAILABLE, CORPUS_NOTICE, CORPUS_REQUIRED, CORPUS_ROOT } from "../support/corpus-location.mjs";
import { WORKER_CONFIGS } from "../../scripts/dev-args.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// wrangler needs Node 22: run its entry with this process's Node (the pinned
// node@22 inside npm scripts) rather than trusting the shebang's PATH lookup.
const WRANGLER_JS = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
export const ADMIN_TOKEN = "e2e-admin-token";
const JWT_SECRET = "e2e-jwt-secret-0123456789abcdef";

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Browser Rendering offline: the servers below launch the system Chromium
// through miniflare (XDG_CACHE_HOME is set here and inherited).
const CHROME_READY = prepareChrome();

const quietEnv = () => ({
  ...process.env,
  PATH: `${join(ROOT, "node_modules", ".bin")}:${dirname(process.execPath)}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
});

/**
 * @param {{ vars?: Record<string,string>, log?: boolean }} [opts]
 * @returns {Promise<{ base: string, adminToken: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startServer(opts = {}) {
  const state = mkdtempSync(join(tmpdir(), "docapi-e2e-"));
  const migrate = spawnSync(process.execPath, [WRANGLER_JS, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
    cwd: ROOT,
    env: quietEnv(),
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const port = await freePort();
  // DEV_MAILBOX as under `npm run dev`: browser tests follow sign-in links from /dev/mailbox.
  const vars = { ADMIN_TOKEN, JWT_SECRET, DEV_MAILBOX: "true", ...(opts.vars ?? {}) };
  const args = [
    WRANGLER_JS,
    "dev",
    ...WORKER_CONFIGS,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    state,
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: quietEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (opts.log) process.stderr.write(chunk);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);

  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      await new Promise((r) => {
        const t = setTimeout(() => {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            /* gone */
          }
          r();
        }, 5000);
        child.once("exit", () => {
          clearTimeout(t);
          r();
        });
      });
    }
    rmSync(state, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${base}/`);
      if (res.ok) return { base, adminToken: ADMIN_TOKEN, pid: child.pid, state, stop, output: () => output };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not start:\n${output}`);
}

/** Creates an account (operator API) and an API key; returns the credentials. */
export async function createAccountWithKey(base, opts = {}) {
  const email = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const acc = await fetch(`${base}/admin/v1/accounts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "E2E", plan: opts.plan ?? "pro", credits: opts.credits ?? 100_000, owner_email: email }),
  });
  if (acc.status !== 201) throw new Error(`account: ${acc.status} ${await acc.text()}`);
  const { account, token } = await acc.json();
  const key = await fetch(`${base}/api/v1/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "e2e" }),
  });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${await key.text()}`);
  const { api_key } = await key.json();
  return { accountId: account.id, token, apiKey: api_key };
}

/** A server plus a funded pro account with a key: the usual e2e starting point. */
export async function startServerWithKey(opts = {}) {
  const server = await startServer(opts);
  try {
    const creds = await createAccountWithKey(server.base, opts);
    return { ...server, ...creds };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** True when a native tool is on PATH. In CI a missing oracle is a failure, not a skip. */
export function hasTool(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).status === 0;
}

export function requireTool(t, cmd) {
  if (hasTool(cmd)) return true;
  if (process.env.CI) throw new Error(`${cmd} is required in CI but not installed (.ci/run installs it)`);
  t.skip(`${cmd} not installed; skipping this oracle check`);
  return false;
}

/** A file of the shared corpus (see test/support/corpus-location.mjs), path relative to it. */
export const corpusPath = (path) => join(CORPUS_ROOT, path);

/** True when the shared corpus is here; without it the test skips visibly, or fails under REQUIRE_CORPUS=1. */
export function requireCorpus(t) {
  if (CORPUS_AVAILABLE) return true;
  if (CORPUS_REQUIRED) throw new Error(`REQUIRE_CORPUS=1 but no corpus directory at ${CORPUS_ROOT} (set CORPUS_DIR)`);
  t.skip(CORPUS_NOTICE);
  return false;
}

/** True when a Chromium can be launched; without one the test skips visibly, or fails under REQUIRE_CHROMIUM=1. */
export function requireChromium(t) {
  if (CHROME_READY) return true;
  if (CHROMIUM_REQUIRED) throw new Error("REQUIRE_CHROMIUM=1 but no Chromium is installed (.ci/run installs it)");
  t.skip(CHROMIUM_NOTICE);
  return false;
}
