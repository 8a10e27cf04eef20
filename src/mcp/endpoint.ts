import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { KEY_PREFIX } from "../auth/api-keys";
import { identify } from "../auth/identify";
import { ApiError, problemResponse } from "../errors";
import { type AppContext, principalOf } from "../http/context";
import { leaseFor, withLease } from "../runtime/call-lease";
import { holdMemory, withMemory } from "../runtime/memory";
import { bodyReservation } from "../http/validate";
import { callTool, type Dispatch } from "./tool-call";
import { mcpTools, toolsFor } from "./tool-list";

// The remote MCP endpoint (Streamable HTTP, stateless: every POST carries
// one JSON-RPC message or batch and gets its answer as JSON; no session, so
// no Durable Object and any isolate can answer). A server and transport are
// made per request, as the SDK asks of stateless servers, so nothing of one
// caller's request can reach another's. Credentials are the HTTP API's:
// X-API-Key, Authorization: Bearer with an API key or a dashboard JWT, or
// none for the free-try tools. OAuth 2.1 would slot in where the caller is
// identified (principalOf), answering 401 with WWW-Authenticate there.

/** A JSON-RPC body of an MCP request: tool arguments carry files inline as Base64, so it may be large, but not a whole upload's size. */
export const MCP_BODY_BYTES = 24 * 1024 * 1024;

const SERVER_INFO = { name: "docapi", title: "Document API", version: "1.0.0" };

/** MCP clients send an API key as a bearer token; the HTTP API knows it as X-API-Key. */
function withKeyHeader(req: Request): Request {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("Authorization") ?? "")?.[1];
  if (!bearer?.startsWith(KEY_PREFIX) || req.headers.has("X-API-Key")) return req;
  const headers = new Headers(req.headers);
  headers.delete("Authorization");
  headers.set("X-API-Key", bearer);
  return new Request(req, { headers });
}

/** A queue of one: the tool calls of a batch run in turn, so each one's memory estimate is counted on top of what the request holds. */
function serially(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

function mcpServer(c: AppContext, request: Request, dispatch: Dispatch): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    instructions:
      "Document tools (PDF, documents, images). Pass files as {base64, filename} or {url}; outputs come back as URLs, which later calls of the same account may pass as {url}. Each call is billed like the HTTP API; _meta.credits_charged says what it cost.",
  });
  const inTurn = serially();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(await principalOf(c)) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const entry = mcpTools().get(req.params.name);
    if (!entry) {
      const problem = new ApiError("not_found", `No tool named ${JSON.stringify(req.params.name)}; tools/list names them.`);
      return { content: [{ type: "text", text: `not_found: ${problem.message}` }], isError: true };
    }
    const meta = (req.params._meta ?? {}) as Record<string, unknown>;
    const key = meta["idempotency-key"] ?? request.headers.get("Idempotency-Key") ?? undefined;
    return inTurn(async () =>
      callTool(
        {
          entry,
          args: req.params.arguments ?? {},
          outer: request,
          idempotencyKey: typeof key === "string" ? key : undefined,
          requestId: c.get("requestId"),
          files: { env: c.env, origin: new URL(request.url).origin, principal: await principalOf(c), signal: request.signal },
        },
        dispatch,
      ),
    );
  });
  return server;
}

/** /mcp: POST carries JSON-RPC; any other method answers 405 (a stateless server has no stream to open and no session to end). */
export function mcpEndpoint(dispatch: (c: AppContext, request: Request) => Promise<Response>) {
  return async (c: AppContext): Promise<Response> => {
    if (c.req.method !== "POST") {
      const detail = "This MCP server is stateless: POST JSON-RPC messages to /mcp; there is no stream to open or session to end.";
      return problemResponse(c, new ApiError("method_not_allowed", detail, { headers: { Allow: "POST" } }));
    }
    const request = withKeyHeader(c.req.raw);
    try {
      // A wrong credential is a 401 before any JSON-RPC is read (the MCP authorization spec's answer).
      c.set("principal", await identify(c.env, request));
      const declared = Number(request.headers.get("Content-Length"));
      if (Number.isFinite(declared) && declared > MCP_BODY_BYTES) {
        throw new ApiError("payload_too_large", `An MCP request may carry ${MCP_BODY_BYTES} bytes; pass larger files as {url}.`);
      }
    } catch (err) {
      return problemResponse(c, err);
    }
    const lease = leaseFor(request.signal ?? null);
    return withLease(lease, () =>
      withMemory(0, "mcp", async () => {
        await holdMemory(bodyReservation(request));
        const server = mcpServer(c, request, (inner) => dispatch(c, inner));
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
          maxRequestBodySize: MCP_BODY_BYTES,
        });
        await server.connect(transport);
        try {
          return await transport.handleRequest(request);
        } finally {
          await server.close();
        }
      }),
    );
  };
}
