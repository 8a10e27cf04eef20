// Prints what `npm run soak` measured; answers whether the run was clean.

export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

const MiB = 1024 * 1024;
const pad = (v, n) => String(v).padStart(n);

export function printReport({ base, clients, seconds, results, heaps, charged, dropped }) {
  console.log(`\nsoak: ${results.length} calls from ${clients} clients in ${seconds} s against ${base}\n`);
  console.log(`${"tool".padEnd(16)}${pad("calls", 7)}${pad("p50 ms", 9)}${pad("p95 ms", 9)}  statuses`);
  const byTool = Map.groupBy(results, (r) => r.tool);
  for (const [tool, rows] of byTool) {
    const ms = rows.map((r) => r.ms);
    const statuses = [...Map.groupBy(rows, (r) => r.status)].map(([s, n]) => `${s}x${n.length}`).join(" ");
    console.log(`${tool.padEnd(16)}${pad(rows.length, 7)}${pad(Math.round(percentile(ms, 50)), 9)}${pad(Math.round(percentile(ms, 95)), 9)}  ${statuses}`);
  }
  const histogram = [...Map.groupBy(results, (r) => r.status)].map(([s, n]) => `${s}: ${n.length}`).join(", ");
  const serverErrors = results.filter((r) => typeof r.status === "number" && r.status >= 500).length;
  const hangs = results.filter((r) => r.status === "hang").length;
  const failures = results.filter((r) => typeof r.status === "string" && r.status !== "hang").length;
  console.log(`\nstatus histogram: ${histogram}`);
  console.log(`5xx: ${serverErrors}, hangs: ${hangs}, connection errors: ${failures}`);
  console.log(`credits: charged ${charged} (X-Credits-Charged), balance dropped ${dropped}: ${charged === dropped ? "exact" : "MISMATCH"}`);

  const engines = [...new Set(heaps.flatMap((h) => Object.keys(h)))].filter((k) => !["t", "calls", "recycled"].includes(k));
  console.log(`\nWASM heaps (MiB) over time; mupdf recycles counted beside it`);
  console.log(`${pad("s", 6)}${pad("calls", 8)}${engines.map((e) => pad(e, Math.max(8, e.length + 2))).join("")}${pad("recycled", 10)}`);
  for (const h of heaps) {
    const cells = engines.map((e) => pad(h[e] === undefined ? "-" : (h[e] / MiB).toFixed(1), Math.max(8, e.length + 2))).join("");
    console.log(`${pad(h.t, 6)}${pad(h.calls, 8)}${cells}${pad(h.recycled, 10)}`);
  }
  return serverErrors === 0 && hangs === 0 && failures === 0 && charged === dropped;
}
