// Prints what `npm run soak` measured; answers whether the run was clean.

export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

const MiB = 1024 * 1024;
const pad = (v, n) => String(v).padStart(n);

export function printReport({ base, clients, seconds, results, heaps, charged, cutCharged, dropped, end }) {
  console.log(`\nsoak: ${results.length} calls from ${clients} clients in ${seconds} s against ${base}\n`);
  console.log(`${"tool".padEnd(16)}${pad("calls", 7)}${pad("p50 ms", 9)}${pad("p95 ms", 9)}  statuses`);
  const byTool = Map.groupBy(results, (r) => r.tool);
  for (const [tool, rows] of byTool) {
    const ms = rows.map((r) => r.ms);
    const statuses = [...Map.groupBy(rows, (r) => r.status)].map(([s, n]) => `${s}x${n.length}`).join(" ");
    console.log(`${tool.padEnd(16)}${pad(rows.length, 7)}${pad(Math.round(percentile(ms, 50)), 9)}${pad(Math.round(percentile(ms, 95)), 9)}  ${statuses}`);
  }
  const histogram = [...Map.groupBy(results, (r) => r.status)].map(([s, n]) => `${s}: ${n.length}`).join(", ");
  const serverErrors = results.filter((r) => /^5\d\d /.test(String(r.status))).length;
  const hangs = results.filter((r) => r.status === "hang").length;
  const failures = results.filter((r) => String(r.status).startsWith("error:")).length;
  const cut = results.filter((r) => r.status === "disconnected").length;
  const hostileAccepted = results.filter((r) => r.hostile && !r.cut && r.status === 200 && !r.tool.endsWith("_page")).length;
  console.log(`\nstatus histogram: ${histogram}`);
  console.log(`5xx: ${serverErrors}, hangs: ${hangs}, connection errors: ${failures}, cut off by their clients: ${cut}, bombs accepted: ${hostileAccepted}`);
  const exact = charged + cutCharged === dropped;
  console.log(
    `credits: charged ${charged} (X-Credits-Charged) + ${cutCharged} by cut-off calls that had finished, balance dropped ${dropped}: ${exact ? "exact" : "MISMATCH"}`,
  );
  const overBudget = end.wasmPeak > end.budget;
  const leftRunning = end.running !== 0 || end.reserved !== 0 || end.waiting !== 0;
  console.log(
    `at the end: running ${end.running}, reserved ${end.reserved}, waiting ${end.waiting}; WASM peak ${(end.wasmPeak / MiB).toFixed(1)} MiB of a ${(end.budget / MiB).toFixed(0)} MiB budget${overBudget ? " (OVER)" : ""}`,
  );
  for (const call of end.runningCalls ?? [])
    console.log(`  still running: ${call.tool}, ${(call.bytes / MiB).toFixed(1)} MiB for ${call.seconds} s, engines ${call.engines.join(", ") || "none"}`);
  // Which engines were live together at that moment: where an estimate or a release falls short.
  const atPeak = Object.entries(end.peakHeaps ?? {}).filter(([, bytes]) => bytes > 0);
  if (atPeak.length) console.log(`heaps at the peak (MiB): ${atPeak.map(([name, bytes]) => `${name} ${(bytes / MiB).toFixed(1)}`).join(", ")}`);

  const engines = [...new Set(heaps.flatMap((h) => Object.keys(h)))].filter((k) => !["t", "calls", "recycled"].includes(k));
  console.log(`\nWASM heaps (MiB) over time; mupdf recycles counted beside it`);
  console.log(`${pad("s", 6)}${pad("calls", 8)}${engines.map((e) => pad(e, Math.max(8, e.length + 2))).join("")}${pad("recycled", 10)}`);
  for (const h of heaps) {
    const cells = engines.map((e) => pad(h[e] === undefined ? "-" : (h[e] / MiB).toFixed(1), Math.max(8, e.length + 2))).join("");
    console.log(`${pad(h.t, 6)}${pad(h.calls, 8)}${cells}${pad(h.recycled, 10)}`);
  }
  return serverErrors === 0 && hangs === 0 && failures === 0 && hostileAccepted === 0 && exact && !overBudget && !leftRunning;
}
