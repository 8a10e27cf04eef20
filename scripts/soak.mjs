// `npm run soak`: a bounded load run for operators and for us (issue #18).
// N clients call a mix of the built tools on generated files for T seconds
// (and at most --max-calls calls) against a running server (--url, with the
// operator token in ADMIN_TOKEN) or, by default, a bundled `wrangler dev` it
// starts on 127.0.0.1. It prints per-tool p50/p95 latency, the status
// histogram, 5xx and hangs, the credits charged beside the balance drop, and
// each WASM heap over time (GET /admin/v1/runtime). It exits non-zero on any
// 5xx, hang or credit mismatch.
//
//   npm run soak -- --clients 8 --seconds 600
//   ADMIN_TOKEN=... npm run soak -- --url http://127.0.0.1:8787 --seconds 60
import { parseArgs } from "node:util";
import { ADMIN_TOKEN as E2E_ADMIN_TOKEN, createAccountWithKey, startServer } from "../test/e2e/server.mjs";
import { soakFiles, soakMix } from "./soak/mix.mjs";
import { printReport } from "./soak/report.mjs";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    clients: { type: "string", default: "8" },
    seconds: { type: "string", default: "60" },
    "max-calls": { type: "string", default: "100000" },
    "call-timeout": { type: "string", default: "60" },
    "sample-every": { type: "string", default: "10" },
  },
});
const clients = Number(args.clients);
const seconds = Number(args.seconds);
const maxCalls = Number(args["max-calls"]);
const callTimeoutMs = Number(args["call-timeout"]) * 1000;
// Each key may make 300 calls a minute (wrangler.toml AUTH_LIMITER): a client
// takes a new key of the same account before it gets there.
const CALLS_PER_KEY = 250;

const server = args.url ? null : await startServer();
const base = (args.url ?? server.base).replace(/\/$/, "");
const adminToken = args.url ? process.env.ADMIN_TOKEN : E2E_ADMIN_TOKEN;
if (!adminToken) throw new Error("ADMIN_TOKEN must be set to soak a server given by --url");
process.on("exit", () => server?.stop());

const admin = { Authorization: `Bearer ${adminToken}` };
const account = await createAccountWithKey(base, { credits: 100_000_000 });
const balance = async () => (await (await fetch(`${base}/api/v1/account`, { headers: { Authorization: `Bearer ${account.token}` } })).json()).balance;
async function newKey() {
  const res = await fetch(`${base}/api/v1/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${account.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "soak" }),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
  return (await res.json()).api_key;
}

const files = await soakFiles();
const mix = soakMix(files);
const startBalance = await balance();
const results = []; // { tool, status, ms, credits }
const heaps = [];
let started = 0;
const deadline = Date.now() + seconds * 1000;
const t0 = Date.now();

async function sampleHeaps() {
  const res = await fetch(`${base}/admin/v1/runtime`, { headers: admin, signal: AbortSignal.timeout(10_000) });
  const body = await res.json();
  heaps.push({ t: Math.round((Date.now() - t0) / 1000), calls: results.length, ...body.wasm_heaps, recycled: body.mupdf?.recycled ?? 0 });
}

async function client(id) {
  let key = await newKey();
  let onKey = 0;
  for (let i = id; Date.now() < deadline && started < maxCalls; i++) {
    started++;
    if (++onKey > CALLS_PER_KEY) [key, onKey] = [await newKey(), 1];
    const call = mix[i % mix.length];
    const began = performance.now();
    let status = "hang";
    let credits = 0;
    try {
      const res = await fetch(`${base}${call.path}`, {
        method: "POST",
        headers: { "X-API-Key": key, ...call.headers },
        body: call.body(),
        signal: AbortSignal.timeout(callTimeoutMs),
      });
      await res.arrayBuffer();
      status = res.status;
      credits = Number(res.headers.get("X-Credits-Charged") ?? 0);
    } catch (err) {
      if (err.name !== "TimeoutError") status = `error: ${err.cause?.code ?? err.message}`;
    }
    results.push({ tool: call.tool, status, ms: performance.now() - began, credits });
  }
}

await sampleHeaps();
const sampler = setInterval(() => void sampleHeaps().catch(() => undefined), Number(args["sample-every"]) * 1000);
await Promise.all(Array.from({ length: clients }, (_, id) => client(id)));
clearInterval(sampler);
await sampleHeaps();

const charged = results.reduce((n, r) => n + r.credits, 0);
const dropped = startBalance - (await balance());
const ok = printReport({ base, clients, seconds: Math.round((Date.now() - t0) / 1000), results, heaps, charged, dropped });
await server?.stop();
process.exit(ok ? 0 : 1);
