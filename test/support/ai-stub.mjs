// A scripted OpenAI-compatible model server for the AI tests, started by
// vitest.config.ts on a random loopback port (AI_STUB_ORIGIN). Tests point
// the Worker at it per request (AI_BASE_URL, model names of their own), so
// parallel test files never share a script:
//
//   POST /script/<model>           body: JSON array of steps, appended to the model's queue
//   GET  /requests/<model>         what the model was sent, in order: [{ body, authorization }]
//   POST /v1/chat/completions      answers the next step of body.model's queue:
//     { content: "..." }           200 with that message content
//     { status: 503, body?: "..." } that status
//     { hangMs: 2000, content? }   waits, then answers (timeouts)
//     { bytes: 2000000 }           200 with a content of that many bytes (size bound)
//     { raw: "..." }               200 with that raw body (not a chat completion)
//   An unscripted call answers 500 {"error":"unscripted"}.
import { createServer } from "node:http";

export async function startAiStub() {
  const scripts = new Map();
  const records = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://ai.stub");
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const text = Buffer.concat(chunks).toString("utf8");
    const [, route, ...rest] = url.pathname.split("/");
    const model = decodeURIComponent(rest.join("/"));
    if (req.method === "POST" && route === "script") {
      scripts.set(model, [...(scripts.get(model) ?? []), ...JSON.parse(text)]);
      return json(res, 200, { ok: true });
    }
    if (req.method === "GET" && route === "requests") return json(res, 200, records.get(model) ?? []);
    if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return json(res, 400, { error: "body is not JSON" });
      }
      records.set(body.model, [...(records.get(body.model) ?? []), { body, authorization: req.headers.authorization ?? null }]);
      const queue = scripts.get(body.model) ?? [];
      const step = queue.shift();
      if (!step) return json(res, 500, { error: "unscripted" });
      if (step.hangMs) await new Promise((r) => setTimeout(r, step.hangMs));
      if (res.destroyed) return;
      if (step.status) return json(res, step.status, { error: step.body ?? "scripted failure" });
      if (step.raw !== undefined) {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(step.raw);
      }
      const content = step.bytes ? "a".repeat(step.bytes) : (step.content ?? "");
      return json(res, 200, {
        id: "stub",
        object: "chat.completion",
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      });
    }
    json(res, 404, { error: "not found" });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { origin: `http://127.0.0.1:${server.address().port}` };
}

function json(res, status, value) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}
