// `npm run bench`: starts the bundled Worker with `wrangler dev`, runs every
// section in scripts/bench/*.mjs against it over HTTP, and prints per-tool
// median latency, output size and the peak memory of the workerd process
// beside native peers (qpdf, Ghostscript, mutool, cwebp...) when installed.
// It also prints the bundle size and the WASM heaps the Worker reached.
// A script, not a test: numbers vary by machine.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { CORPUS_ROOT } from "../test/support/corpus-location.mjs";
import { ROOT, startServerWithKey } from "../test/e2e/server.mjs";
import { prepareChrome } from "./chrome-shim.mjs";

const only = process.argv.slice(2);
const rows = [];
const tmp = mkdtempSync(join(tmpdir(), "docapi-bench-"));

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

/** PIDs of workerd processes started below the given process. */
function workerdPids(rootPid) {
  const out = [];
  const children = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const comm = readFileSync(`/proc/${d}/comm`, "utf8").trim();
      children.set(Number(d), { ppid, comm });
    } catch {
      /* process ended */
    }
  }
  const below = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 20; i++) {
      if (p === rootPid) return true;
      p = children.get(p)?.ppid ?? 0;
    }
    return false;
  };
  for (const [pid, info] of children) if (info.comm.startsWith("workerd") && below(pid)) out.push(pid);
  return out;
}

function peakRssKb(pids) {
  let sum = 0;
  for (const pid of pids) {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      sum += m ? Number(m[1]) : 0;
    } catch {
      /* gone */
    }
  }
  return sum;
}

function resetPeak(pids) {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM (Linux)
    } catch {
      /* not permitted: peaks then accumulate */
    }
  }
}

function hasCommand(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
}

/** `config`: the API (wrangler.toml) or the OCR Worker (workers/ocr/wrangler.toml), each deployed and limited on its own. */
function bundleSize(config = "wrangler.toml") {
  const out = join(tmp, `dist-${config.replaceAll("/", "-")}`);
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", out, "-c", config], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (r.status !== 0) return { error: r.stderr.slice(-500) };
  let raw = 0;
  let gz = 0;
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (!f.endsWith(".map")) {
        const data = readFileSync(p);
        raw += data.length;
        gz += gzipSync(data).length;
      }
    }
  };
  walk(out);
  return { raw_mb: +(raw / 1048576).toFixed(2), gzip_mb: +(gz / 1048576).toFixed(2) };
}

async function main() {
  // HTML to PDF runs on the system Chromium offline (miniflare's wrapper).
  if (!prepareChrome()) console.warn("no Chromium found: the HTML section will fail (apt-get install chromium)");
  const server = await startServerWithKey({
    credits: 10_000_000,
    plan: "pro",
    vars: { ALLOW_INSECURE_WEBHOOKS: "true", ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" },
  });
  const pids = () => workerdPids(server.pid);
  const ctx = {
    base: server.base,
    apiKey: server.apiKey,
    token: server.token,
    accountId: server.accountId,
    adminToken: server.adminToken,
    tmp,
    corpus: CORPUS_ROOT,
    async post(path, body, headers = {}) {
      const isForm = body instanceof FormData;
      const started = performance.now();
      const send = () =>
        fetch(server.base + path, {
          method: "POST",
          body: isForm ? body : JSON.stringify(body),
          headers: { "X-API-Key": server.apiKey, ...(isForm ? {} : { "Content-Type": "application/json" }), ...headers },
        });
      let res;
      try {
        res = await send();
      } catch (err) {
        // A pooled keep-alive connection the server closed while a native peer
        // ran for seconds fails before the request is sent: send it again.
        const code = err?.cause?.code;
        if (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET" && code !== "EPIPE") throw err;
        res = await send();
      }
      const text = await res.text();
      const ms = performance.now() - started;
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = { raw: text.slice(0, 200) };
      }
      return { status: res.status, json, ms };
    },
    async time(fn, runs = 5) {
      const times = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
      return { median_ms: Math.round(median(times)), min_ms: Math.round(Math.min(...times)) };
    },
    native(cmd, args, opts = {}) {
      if (!hasCommand(cmd)) return null;
      const runs = opts.runs ?? 3;
      const times = [];
      let peak = 0;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { encoding: "utf8", cwd: opts.cwd ?? tmp });
        times.push(performance.now() - t);
        const kb = Number((r.stderr.trim().split("\n").pop() ?? "").trim());
        if (Number.isFinite(kb)) peak = Math.max(peak, kb);
        if (r.status !== 0 && !opts.allowFailure) return { median_ms: NaN, peak_kb: peak, error: r.stderr.slice(-300) };
      }
      return { median_ms: Math.round(median(times)), peak_kb: peak };
    },
    /** Resets then reads the workerd peak RSS around `fn` (the Worker's real footprint). */
    async peak(fn) {
      const p = pids();
      resetPeak(p);
      const result = await fn();
      return { result, peak_mb: +(peakRssKb(p) / 1024).toFixed(1) };
    },
    async runtime() {
      const get = () => fetch(`${server.base}/admin/v1/runtime`, { headers: { Authorization: `Bearer ${server.adminToken}` } });
      // Same stale keep-alive connection as in post() after a long Node-side measurement.
      const res = await get().catch(() => get());
      return res.ok ? res.json() : {};
    },
    row(r) {
      rows.push({ section: ctx.section, ...r });
      const peer = r.peer
        ? `  | ${r.peer}: ${r.peer_ms ?? "-"} ms${r.peer_bytes ? `, ${r.peer_bytes} B` : ""}${r.peer_peak_mb ? `, ${r.peer_peak_mb} MB` : ""}`
        : "";
      console.log(
        `  ${String(r.tool).padEnd(18)} ${String(r.case ?? "").padEnd(34)} ${String(r.ms ?? "-").padStart(7)} ms` +
          `${r.bytes !== undefined ? `  ${r.bytes} B` : ""}${r.peak_mb !== undefined ? `  peak ${r.peak_mb} MB` : ""}${peer}${r.note ? `  (${r.note})` : ""}`,
      );
    },
  };

  try {
    const files = readdirSync(join(ROOT, "scripts", "bench"))
      .filter((f) => f.endsWith(".mjs"))
      .sort((a, b) => (a === "platform.mjs" ? -1 : b === "platform.mjs" ? 1 : a.localeCompare(b)));
    for (const f of files) {
      if (only.length && !only.some((o) => f.includes(o))) continue;
      const mod = await import(join(ROOT, "scripts", "bench", f));
      if (!mod.run) continue; // a helper module, not a section
      // Sections too slow for every run (a quarter of an hour) run only when named.
      if (mod.onlyWhenNamed && !only.length) continue;
      ctx.section = mod.title ?? f;
      console.log(`\n## ${ctx.section}`);
      try {
        await mod.run(ctx);
      } catch (err) {
        console.log(`  section failed: ${err?.stack ?? err}${err?.cause ? ` (cause: ${err.cause?.code ?? ""} ${err.cause?.message ?? err.cause})` : ""}`);
        // What wrangler/workerd said last (a crash or a reload shows here).
        console.log(`  wrangler output (tail):\n${server.output?.().slice(-2000) ?? ""}`);
      }
    }
    const runtime = await ctx.runtime();
    const heaps = Object.entries(runtime.wasm_heaps ?? {}).map(([k, v]) => `${k} ${(v / 1048576).toFixed(1)} MB`);
    console.log(`\n## Runtime\n  WASM heaps at the end: ${heaps.join(", ") || "none"}`);
    console.log(`  workerd peak RSS over the whole run: ${(peakRssKb(pids()) / 1024).toFixed(1)} MB (after the last reset)`);
  } finally {
    await server.stop();
  }
  const size = bundleSize();
  const ocrSize = bundleSize("workers/ocr/wrangler.toml");
  const shown = (s) => (s.error ? `failed: ${s.error}` : `${s.raw_mb} MB raw, ${s.gzip_mb} MB gzip`);
  console.log(`\n## Bundle (wrangler deploy --dry-run; 10 MB gzip each on the paid plan)\n  API: ${shown(size)}\n  OCR Worker: ${shown(ocrSize)}`);
  writeFileSync(join(ROOT, ".bench-results.json"), JSON.stringify({ at: new Date().toISOString(), rows, bundle: size, ocr_bundle: ocrSize }, null, 2));
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
