// A page server for the HTML renderer's url-source tests (and an origin
// where nothing listens, for connection failures), started by
// vitest.config.ts on a random loopback port. The renderer may load it only
// because the test run sets BROWSER_DEV_ALLOWED_ORIGINS to exactly its origin
// (a dev-only setting that accepts loopback origins alone); every other
// loopback spelling stays refused, which the SSRF tests rely on.
//
//   /page                  a small HTML page with an image from this origin
//   /embed?src=<url>       a page with one image from <url> (a sub-resource)
//   /status/<code>         an HTML page answering <code>
//   /redirect?to=<url>     302 to <url>
//   /hang                  never answers (page-load timeout)
//   /big                   30 MiB of HTML comment (byte cap)
//   /beacon/<token>        counts a hit and answers a 1x1 PNG
//   /hits/<token>          how many times /beacon/<token> was hit, as JSON
//   /script?js=<code>      a page that runs <code>
//   WebSocket /beacon/<token> counts the handshake as a hit, then hangs up
//   /cached/<token>        counts a hit and answers a PNG the browser may cache for an hour
//   /set-state/<value>     sets a cookie (Set-Cookie and document.cookie) and a localStorage entry to <value>
//   /show-state            prints the request's Cookie header, document.cookie and localStorage
//   /headers/<token>       records the request's header names and answers a 1x1 PNG; /seen/<token> lists them as JSON
//   /listener/<token>      opens (once) a TCP and UDP listener on a fresh loopback port that counts
//                          connections and datagrams; answers {port, connections} as JSON. Nothing
//                          the renderer allows points there, so any count is traffic that escaped the guard
import { createSocket } from "node:dgram";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const BIG_BYTES = 30 * 1024 * 1024;

export async function startPageServer() {
  const hits = new Map();
  const listeners = new Map();
  const seen = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://page.server");
    const [, route, arg] = url.pathname.split("/");
    if (route === "page") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end('<!doctype html><title>Served page</title><h1>Hello from the page server</h1><img src="/beacon/page-image">');
    }
    if (route === "embed") {
      const src = (url.searchParams.get("src") ?? "").replace(/[<>"]/g, "");
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><p>embedding page</p><img src="${src}">`);
    }
    if (route === "script") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><p>script page</p><script>${url.searchParams.get("js") ?? ""}</script>`);
    }
    if (route === "status") {
      res.writeHead(Number(arg), { "Content-Type": "text/html" });
      return res.end(`<!doctype html><h1>Status ${arg}</h1>`);
    }
    if (route === "redirect") {
      res.writeHead(302, { Location: url.searchParams.get("to") ?? "/page" });
      return res.end();
    }
    if (route === "hang") {
      req.socket.unref();
      return;
    }
    if (route === "big") {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.write("<!doctype html><p>big</p><!--");
      const chunk = Buffer.alloc(1024 * 1024, 97);
      for (let sent = 0; sent < BIG_BYTES; sent += chunk.length) res.write(chunk);
      return res.end("-->");
    }
    if (route === "beacon") {
      hits.set(arg, (hits.get(arg) ?? 0) + 1);
      res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "no-store" });
      return res.end(PNG_1X1);
    }
    if (route === "cached") {
      hits.set(arg, (hits.get(arg) ?? 0) + 1);
      res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "public, max-age=3600" });
      return res.end(PNG_1X1);
    }
    if (route === "headers") {
      seen.set(arg, [...(seen.get(arg) ?? []), req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase())]);
      res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "no-store" });
      return res.end(PNG_1X1);
    }
    if (route === "seen") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ requests: seen.get(arg) ?? [] }));
    }
    if (route === "set-state") return setState(res, arg ?? "");
    if (route === "show-state") return showState(req, res);
    if (route === "listener") {
      if (!listeners.has(arg)) listeners.set(arg, openListener());
      return listeners.get(arg).then((l) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ port: l.port, connections: l.count() }));
      });
    }
    if (route === "hits") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ hits: hits.get(arg) ?? 0 }));
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("not found");
  });
  server.on("upgrade", (req, socket) => {
    const [, route, arg] = new URL(req.url ?? "/", "http://page.server").pathname.split("/");
    if (route === "beacon") hits.set(arg, (hits.get(arg) ?? 0) + 1);
    socket.destroy();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const address = server.address();
  return { origin: `http://127.0.0.1:${address.port}`, deadOrigin: await deadOrigin() };
}

const cleanValue = (v) => v.replace(/[^A-Za-z0-9_-]/g, "");

function setState(res, raw) {
  const value = cleanValue(raw);
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Set-Cookie": `http_cookie=${value}; Path=/; Max-Age=3600` });
  res.end(`<!doctype html><p>state set ${value}</p><script>
    document.cookie = "js_cookie=${value}; path=/; max-age=3600";
    localStorage.setItem("stored", "${value}");
  </script>`);
}

function showState(req, res) {
  const sent = (req.headers.cookie ?? "").replace(/[<>&]/g, "");
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html><p>request cookies [${sent}]</p><p id="js"></p><script>
    const stored = Object.keys(localStorage).map((k) => k + "=" + localStorage.getItem(k)).join(";");
    document.getElementById("js").textContent = "document cookies [" + document.cookie + "] local storage [" + stored + "]";
  </script>`);
}

/** An origin nothing listens on (a port bound, then released): connection refused. */
async function deadOrigin() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

// A loopback port that counts whoever reaches it, for the renderer's escape
// tests: TCP connections (WebSocket, EventSource, TURN over TCP, a popup's
// page load) and UDP datagrams (STUN/TURN over UDP) on the same port number.
// It answers nothing and hangs up, so a client that gets through fails fast
// rather than holding the render open.
async function openListener() {
  let connections = 0;
  const tcp = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  tcp.unref();
  const { port } = tcp.address();
  const udp = createSocket("udp4");
  udp.on("message", () => connections++);
  // The UDP port of the same number is usually free; counting TCP alone still proves the point when it is not.
  await new Promise((resolve) => {
    udp.once("error", resolve);
    udp.bind(port, "127.0.0.1", resolve);
  });
  udp.unref();
  return { port, count: () => connections };
}
