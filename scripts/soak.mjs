// `npm run soak`: a bounded load run for operators and for us (issue #18).
// N clients call a mix of the built tools on generated files for T seconds
// (and at most --max-calls calls) against a running server (--url, with the
// operator token in ADMIN_TOKEN) or, by default, a bundled `wrangler dev` it
// starts on 127.0.0.1. It prints per-tool p50/p95 latency, the status
// histogram, 5xx and hangs, the credits charged beside the balance drop, and
// each WASM heap over time (GET /admin/v1/runtime). Beside the tools, every
// --hostile-every'th call sends a hostile file (30 MB of newlines, a DOCX
// that inflates to 240 MB, a page that spins or refreshes itself), and every
// --disconnect-every'th call is cut off by its client at a random moment,
// on a key of its own, so what such calls were really charged can be read
// back from the key's spend. It exits non-zero on any 5xx, hang, credit
// mismatch (disconnected calls must be refunded unless they had finished),
// a WASM peak over the memory budget, or calls still running at the end.
//
//   npm run soak -- --clients 8 --seconds 600
//   ADMIN_TOKEN=... npm run soak -- --url http://127.0.0.1:8787 --seconds 60
import { parseArgs } from "node:util";
import { ADMIN_TOKEN as E2E_ADMIN_TOKEN, createAccountWithKey, startServer } from "../test/e2e/server.mjs";
import { hostileFiles, hostileMix, soakFiles, soakMix } from "./soak/mix.mjs";
import { printReport } from "./soak/report.mjs";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    clients: { type: "string", default: "8" },
    seconds: { type: "string", default: "60" },
    "max-calls": { type: "string", default: "100000" },
    "call-timeout": { type: "string", default: "60" },
    "sample-every": { type: "string", default: "10" },
    "hostile-every": { type: "string", default: "12" },
    "disconnect-every": { type: "string", default: "8" },
    // The started server's own log (wrangler dev and workerd) on stderr, to find what a 5xx was.
    "server-log": { type: "boolean", default: false },
  },
});
const clients = Number(args.clients);
const seconds = Number(args.seconds);
const maxCalls = Number(args["max-calls"]);
const callTimeoutMs = Number(args["call-timeout"]) * 1000;
// Each key may make 300 calls a minute (wrangler.toml AUTH_LIMITER): a client
// takes a new key of the same account before it gets there.
const CALLS_PER_KEY = 250;

const hostileEvery = Number(args["hostile-every"]);
const disconnectEvery = Number(args["disconnect-every"]);

// A spinning page holds a browser until the page timeout: 10 s keeps the run's browsers turning over.
const server = args.url ? null : await startServer({ vars: { BROWSER_PAGE_TIMEOUT_MS: "10000" }, log: args["server-log"] });
const base = (args.url ?? server.base).replace(/\/$/, "");
const adminToken = args.url ? process.env.ADMIN_TOKEN : E2E_ADMIN_TOKEN;
if (!adminToken) throw new Error("ADMIN_TOKEN must be set to soak a server given by --url");
process.on("exit", () => server?.stop());

const admin = { Authorization: `Bearer ${adminToken}` };
const account = await createAccountWithKey(base, { credits: 100_000_000 });
const balance = async () => (await (await fetch(`${base}/api/v1/account`, { headers: { Authorization: `Bearer ${account.token}` } })).json()).balance;
async function newKey(name = "soak") {
  const res = await fetch(`${base}/api/v1/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${account.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return body.api_key;
}

/** Credits this month of every key named `name` (the meter's own count). */
async function spendOfKeys(name) {
  const res = await fetch(`${base}/api/v1/keys`, { headers: { Authorization: `Bearer ${account.token}` } });
  const { data } = await res.json();
  return data.filter((k) => k.name === name).reduce((n, k) => n + k.credits_used, 0);
}

const runtime = async () => (await fetch(`${base}/admin/v1/runtime`, { headers: admin, signal: AbortSignal.timeout(10_000) })).json();

/** Polls until `ok`; answers the last value either way. */
async function settled(read, ok, ms) {
  const end = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

const files = await soakFiles();
const mix = soakMix(files);
const hostile = hostileMix(hostileFiles());
const startBalance = await balance();
const results = []; // { tool, status, ms, credits }
const heaps = [];
let started = 0;
const deadline = Date.now() + seconds * 1000;
const t0 = Date.now();

async function sampleHeaps() {
  const body = await runtime();
  heaps.push({ t: Math.round((Date.now() - t0) / 1000), calls: results.length, ...body.wasm_heaps, recycled: body.mupdf?.recycled ?? 0 });
}

function problemCode(text) {
  try {
    return JSON.parse(text).code ?? "?";
  } catch {
    // Not our problem+json: the runtime's own error page; its first words say which.
    return `not-json: ${text.replace(/\s+/g, " ").slice(0, 80)}`;
  }
}

/**
 * `op`, or a TimeoutError a little after the call's own timeout: a fetch
 * whose signal fired but that never settled (seen once, with the server
 * still up) must count as a hang, not stall its client and the report.
 */
function outlast(op) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("no answer"), { name: "TimeoutError" })), callTimeoutMs + 5_000);
  });
  return Promise.race([op, late]).finally(() => clearTimeout(timer));
}

/** The call of step `i`: a hostile one every hostileEvery steps, a tool of the mix otherwise. */
function callAt(i) {
  if (hostileEvery > 0 && i % hostileEvery === hostileEvery - 1) return hostile[Math.floor(i / hostileEvery) % hostile.length];
  return mix[i % mix.length];
}

async function client(id) {
  let key = await newKey();
  const cutKey = await newKey("soak-disconnect");
  let onKey = 0;
  for (let i = id; Date.now() < deadline && started < maxCalls; i++) {
    started++;
    if (++onKey > CALLS_PER_KEY) [key, onKey] = [await newKey(), 1];
    const call = callAt(i);
    // Cut off after 20-600 ms: before the body is sent, while it runs, or as it answers.
    const cutAfter = disconnectEvery > 0 && i % disconnectEvery === 0 ? 20 + ((i * 7919) % 580) : null;
    const began = performance.now();
    let status = "hang";
    let credits = 0;
    const signal =
      cutAfter === null ? AbortSignal.timeout(callTimeoutMs) : AbortSignal.any([AbortSignal.timeout(callTimeoutMs), AbortSignal.timeout(cutAfter)]);
    try {
      const res = await outlast(
        fetch(`${base}${call.path}`, {
          method: "POST",
          headers: { "X-API-Key": cutAfter === null ? key : cutKey, ...call.headers },
          body: call.body(),
          signal,
        }),
      );
      const text = await outlast(res.text());
      // A refusal or failure is named by its code, so the report says which one it was.
      status = res.status >= 400 ? `${res.status} ${problemCode(text)}` : res.status;
      credits = cutAfter === null ? Number(res.headers.get("X-Credits-Charged") ?? 0) : 0;
    } catch (err) {
      if (cutAfter !== null && performance.now() - began < callTimeoutMs) status = "disconnected";
      else if (err.name !== "TimeoutError") status = `error: ${err.cause?.code ?? err.message}`;
    }
    results.push({ tool: call.tool, status, ms: performance.now() - began, credits, hostile: call.hostile === true, cut: cutAfter !== null });
  }
}

await sampleHeaps();
const sampler = setInterval(() => void sampleHeaps().catch(() => undefined), Number(args["sample-every"]) * 1000);
await Promise.all(Array.from({ length: clients }, (_, id) => client(id)));
clearInterval(sampler);
await sampleHeaps();

// Cut-off calls end on the server after their clients left: wait for them
// to give their memory back and their refunds to land.
const end = await settled(runtime, (r) => r.running === 0 && r.reserved === 0 && r.waiting === 0, 60_000);
const charged = results.reduce((n, r) => n + r.credits, 0);
const cutCharged = await spendOfKeys("soak-disconnect");
const dropped = await settled(
  async () => startBalance - (await balance()),
  (d) => d === charged + cutCharged,
  15_000,
);
const ok = printReport({
  base,
  clients,
  seconds: Math.round((Date.now() - t0) / 1000),
  results,
  heaps,
  charged,
  cutCharged,
  dropped,
  end: {
    running: end.running,
    reserved: end.reserved,
    waiting: end.waiting,
    runningCalls: end.running_calls,
    wasmPeak: end.wasm_peak,
    peakHeaps: end.wasm_peak_heaps ?? {},
    budget: end.budget,
  },
});
await server?.stop();
process.exit(ok ? 0 : 1);
