// Issue #5 figures: webhook deliveries through the real local queue, consumer
// and endpoint Durable Object to a receiver on 127.0.0.1 (node:http), each
// verified with the standardwebhooks package. Reports deliveries per second
// under a burst and p50/p99 time from the event (the request that caused it)
// to the receiver having it. Locally the queue waits up to max_batch_timeout
// (1 s) for a batch to fill, which bounds latency from below when idle.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

export const title = "Webhooks";

const BURST = 200;
const BURST_CONCURRENCY = 20;
const SEQUENTIAL = 20;
const FAN_OUT_ENDPOINTS = 24; // plus the first one: the per-account cap of 25
const FAN_OUT_PAYMENTS = 20;

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

function startReceiver() {
  const arrivals = new Map(); // "<path> <event_id>" -> { at, count }
  const verifiers = new Map(); // path -> Webhook
  let badSignatures = 0;
  const waiters = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        verifiers.get(req.url).verify(body, req.headers);
      } catch {
        badSignatures++;
      }
      const id = `${req.url} ${req.headers["webhook-id"]}`;
      const seen = arrivals.get(id);
      arrivals.set(id, seen ? { ...seen, count: seen.count + 1 } : { at, count: 1 });
      res.writeHead(200).end("ok");
      for (const w of waiters) w();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: (path) => `http://127.0.0.1:${server.address().port}${path}`,
        arrivals,
        setSecret: (path, s) => verifiers.set(path, new Webhook(s)),
        badSignatures: () => badSignatures,
        /** Resolves when every id has arrived, or rejects after timeoutMs. */
        waitFor(ids, timeoutMs) {
          return new Promise((ok, fail) => {
            const check = () => {
              if (ids.every((id) => arrivals.has(id))) {
                waiters.delete(check);
                clearTimeout(t);
                ok();
              }
            };
            const t = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`${ids.filter((id) => !arrivals.has(id)).length} of ${ids.length} deliveries missing after ${timeoutMs} ms`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

async function pay(ctx, tag) {
  const res = await fetch(`${ctx.base}/admin/v1/accounts/${ctx.accountId}/payments`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ctx.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ payment_id: `bench-${tag}-${Date.now()}-${Math.random().toString(36).slice(2)}`, amount_cents: 100, credits: 1 }),
  });
  if (res.status !== 201) throw new Error(`payment: ${res.status} ${await res.text()}`);
}

/**
 * Fan-out: 25 endpoints on invoice.paid, so each payment becomes 25
 * deliveries in one sendBatch. Producing is cheap here; what is measured is
 * the queue, the consumer and 25 endpoint objects delivering.
 */
async function fanOut(ctx, receiver, endpointIds) {
  for (let i = 0; i < FAN_OUT_ENDPOINTS; i++) {
    const path = `/fan/${i}`;
    const r = await api(ctx, "POST", "/api/v1/webhooks/", { url: receiver.url(path), events: ["invoice.paid"] });
    if (r.status !== 201) throw new Error(`create endpoint: ${r.status} ${JSON.stringify(r.json)}`);
    endpointIds.push(r.json.id);
    receiver.setSecret(path, r.json.secret);
  }
  const before = receiver.arrivals.size;
  const expected = FAN_OUT_PAYMENTS * (FAN_OUT_ENDPOINTS + 1);
  const start = Date.now();
  await pool(
    Array.from({ length: FAN_OUT_PAYMENTS }, (_, i) => i),
    5,
    (i) => pay(ctx, `fan${i}`),
  );
  const produced = Date.now();
  await new Promise((ok, fail) => {
    const deadline = setTimeout(async () => {
      // Say where the missing ones are: the delivery logs know.
      const states = {};
      for (const id of endpointIds) {
        const log = await api(ctx, "GET", `/api/v1/webhooks/${id}/deliveries?limit=100`);
        for (const d of log.json?.data ?? []) {
          const k = `${d.status}/${d.attempts}${d.last_error ? ` ${d.last_error}` : ""}`;
          states[k] = (states[k] ?? 0) + 1;
        }
      }
      fail(new Error(`fan-out: ${receiver.arrivals.size - before} of ${expected} arrived; delivery logs: ${JSON.stringify(states)}`));
    }, 120_000);
    const poll = setInterval(() => {
      if (receiver.arrivals.size - before >= expected) {
        clearInterval(poll);
        clearTimeout(deadline);
        ok();
      }
    }, 10);
  });
  const seconds = (Date.now() - start) / 1000;
  ctx.row({
    tool: "webhooks",
    case: `fan-out ${FAN_OUT_PAYMENTS} events x ${FAN_OUT_ENDPOINTS + 1} endpoints`,
    ms: Math.round(seconds * 1000),
    deliveries_per_s: +(expected / seconds).toFixed(1),
    note: `${(expected / seconds).toFixed(1)} deliveries/s through the queue (${expected} deliveries; events produced in ${produced - start} ms)`,
  });
}

async function api(ctx, method, path, body, token = ctx.token) {
  const res = await fetch(ctx.base + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function pool(items, concurrency, fn) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (queue.length) await fn(queue.shift());
    }),
  );
}

export async function run(ctx) {
  const receiver = await startReceiver();
  const endpointIds = [];
  let endpointId;
  try {
    const created = await api(ctx, "POST", "/api/v1/webhooks/", { url: receiver.url("/hook"), events: ["invoice.paid"] });
    if (created.status !== 201) throw new Error(`create endpoint: ${created.status} ${JSON.stringify(created.json)}`);
    endpointId = created.json.id;
    endpointIds.push(endpointId);
    receiver.setSecret("/hook", created.json.secret);

    // Burst: test deliveries fired 20 at a time; the queue fills its batches.
    const sentAt = new Map();
    const burstStart = Date.now();
    await pool(
      Array.from({ length: BURST }, (_, i) => i),
      BURST_CONCURRENCY,
      async () => {
        const t = Date.now();
        const r = await api(ctx, "POST", `/api/v1/webhooks/${endpointId}/test`, {});
        if (r.status !== 202) throw new Error(`test delivery: ${r.status} ${JSON.stringify(r.json)}`);
        sentAt.set(`/hook ${r.json.event_id}`, t);
      },
    );
    const enqueued = Date.now();
    await receiver.waitFor([...sentAt.keys()], 120_000);
    const lastArrival = Math.max(...[...sentAt.keys()].map((id) => receiver.arrivals.get(id).at));
    const burstLatency = [...sentAt].map(([id, t]) => receiver.arrivals.get(id).at - t);
    const perSecond = BURST / ((lastArrival - burstStart) / 1000);
    ctx.row({
      tool: "webhooks",
      case: `burst of ${BURST} test deliveries`,
      ms: percentile(burstLatency, 50),
      p99_ms: percentile(burstLatency, 99),
      deliveries_per_s: +perSecond.toFixed(1),
      note: `p99 ${percentile(burstLatency, 99)} ms; ${perSecond.toFixed(1)} deliveries/s end to end; enqueue took ${enqueued - burstStart} ms`,
    });

    // One event at a time: invoice.paid from the operator payments endpoint,
    // the next only after the previous arrived (idle-system latency).
    const seq = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const before = new Set(receiver.arrivals.keys());
      const t = Date.now();
      await pay(ctx, `seq${i}`);
      const id = await new Promise((ok, fail) => {
        const deadline = setTimeout(() => fail(new Error("invoice.paid did not arrive within 15 s")), 15_000);
        const poll = setInterval(() => {
          const fresh = [...receiver.arrivals.keys()].find((k) => !before.has(k));
          if (fresh) {
            clearInterval(poll);
            clearTimeout(deadline);
            ok(fresh);
          }
        }, 5);
      });
      seq.push(receiver.arrivals.get(id).at - t);
    }
    ctx.row({
      tool: "webhooks",
      case: `invoice.paid, one at a time (${SEQUENTIAL})`,
      ms: percentile(seq, 50),
      p99_ms: percentile(seq, 99),
      note: `p99 ${percentile(seq, 99)} ms event -> delivery (queue batch timeout 1 s)`,
    });

    await fanOut(ctx, receiver, endpointIds);

    const dupes = [...receiver.arrivals.values()].filter((a) => a.count > 1).length;
    ctx.row({
      tool: "webhooks",
      case: "signatures and duplicates",
      ms: "-",
      note: `${receiver.badSignatures()} bad signatures, ${dupes} duplicated deliveries of ${receiver.arrivals.size}`,
    });
  } finally {
    for (const id of endpointIds) await api(ctx, "DELETE", `/api/v1/webhooks/${id}`).catch(() => undefined);
    await receiver.close();
  }
}
