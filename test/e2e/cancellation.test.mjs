// A client that disconnects mid-call, through the real bundled `wrangler dev`
// and a real TCP connection that the client destroys. The call is a render of
// a page that never answers, cut off while it awaits the browser, as a phone
// that loses its signal would be.
//
// wrangler dev's local proxy does not pass a client's disconnect on to the
// Worker (request.signal never aborts there; production and workerd's own
// service bindings do, which test/runtime/cancellation.test.ts drives). So
// this run holds what a user of `wrangler dev` can rely on: the next call is
// not held up by the cut-off one, and once that one ends by its own page
// timeout nothing of it is left running or reserved and its credits are back.
import assert from "node:assert/strict";
import { request } from "node:http";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { ADMIN_TOKEN, requireChromium, startServerWithKey } from "./server.mjs";

let srv;
let hanging;
let hangingOrigin;

before(async () => {
  // Accepts connections and never answers them.
  hanging = createServer((socket) => socket.on("error", () => undefined));
  await new Promise((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  hangingOrigin = `http://127.0.0.1:${hanging.address().port}`;
  srv = await startServerWithKey({ credits: 1000, vars: { BROWSER_DEV_ALLOWED_ORIGINS: hangingOrigin, BROWSER_PAGE_TIMEOUT_MS: "20000" } });
});
after(async () => {
  await srv?.stop();
  hanging?.close();
});

const runtime = async () => (await fetch(`${srv.base}/admin/v1/runtime`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
const balance = async () => (await (await fetch(`${srv.base}/api/v1/account`, { headers: { Authorization: `Bearer ${srv.token}` } })).json()).balance;

async function until(what, read, ok, ms = 5_000) {
  const end = Date.now() + ms;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

/** POSTs a JSON-free multipart body on a raw connection the test can destroy. */
function startRender(url) {
  const boundary = "cancel-boundary";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="url"\r\n\r\n${url}\r\n--${boundary}--\r\n`;
  const req = request(`${srv.base}/api/v1/html/to-pdf`, {
    method: "POST",
    headers: { "X-API-Key": srv.apiKey, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": Buffer.byteLength(body) },
  });
  req.on("error", () => undefined);
  req.end(body);
  return req;
}

test("a client that disconnects mid-render holds up no other call and, once its call ends, leaves nothing behind and its credits back", async (t) => {
  if (!requireChromium(t)) return;
  const before = await balance();
  const req = startRender(`${hangingOrigin}/never`);
  await until("the debit", balance, (b) => b < before, 20_000);
  assert.ok((await runtime()).running >= 1);
  req.destroy();

  const started = Date.now();
  const fd = new FormData();
  fd.append("html", "<!doctype html><h1>Next call</h1>");
  const next = await fetch(`${srv.base}/api/v1/html/to-pdf`, { method: "POST", body: fd, headers: { "X-API-Key": srv.apiKey } });
  assert.equal(next.status, 200, await next.clone().text());
  assert.equal(next.headers.get("X-Credits-Charged"), "40");
  // The cut-off render holds its page for 20 s: a next call that waited for it would take that long.
  assert.ok(Date.now() - started < 12_000, "the next render waited for the cut-off one");

  // The page timeout is 20 s; 6 s more for the call to end and be refunded.
  const r = await until("memory given back", runtime, (v) => v.running === 0 && v.reserved === 0, 26_000);
  assert.equal(r.waiting, 0);
  assert.equal(await until("credits back", balance, (b) => b === before - 40), before - 40);
});
