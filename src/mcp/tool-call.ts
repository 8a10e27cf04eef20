import { ApiError, problemBody } from "../errors";
import { CREDITS_HEADER } from "../tools/pipeline";
import { type FileSource, resolveFile } from "../tools/file-reference";
import { formDataOf, formFieldsOf, settledFields } from "../tools/json-fields";
import type { McpToolEntry } from "./tool-list";

// An MCP tools/call is the tool's own HTTP route called from inside the
// Worker: the same request a multipart client would send, with the caller's
// credentials, client address and Idempotency-Key, through the same
// pipeline (access, scopes, rate limit, memory, debit, refund, job.* events,
// idempotent replay). Nothing of the pipeline is copied here; this file only
// turns arguments into that request and its answer into an MCP result.

/** Runs a request through the Worker's own routing. */
export type Dispatch = (request: Request) => Promise<Response>;

/** Headers of the MCP request that are the MCP transport's own, not the caller's. */
const TRANSPORT_HEADERS = [
  "content-type",
  "content-length",
  "accept",
  "accept-encoding",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
  "idempotency-key",
];

export interface CallInput {
  entry: McpToolEntry;
  args: Record<string, unknown>;
  /** The MCP HTTP request: its credentials, address and abort signal carry over. */
  outer: Request;
  idempotencyKey?: string;
  files: FileSource;
  /** The MCP request's id: a problem raised before the tool runs carries it. */
  requestId: string;
}

export interface CallResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The arguments as the tool's HTTP body: a multipart form with the referenced files, or the JSON itself. */
async function bodyOf(input: CallInput): Promise<{ body: BodyInit; type?: string }> {
  const { tool } = input.entry;
  if (tool.body !== "multipart") return { body: JSON.stringify(input.args), type: "application/json" };
  // Each file is fetched when its turn comes, not all at once: settledFields awaits them in order.
  const pending = formFieldsOf(tool, input.args, (ref, field) => () => resolveFile(ref, field, input.files));
  return { body: formDataOf(await settledFields(pending)) };
}

function innerRequest(input: CallInput, body: BodyInit, type: string | undefined): Request {
  const headers = new Headers(input.outer.headers);
  for (const h of TRANSPORT_HEADERS) headers.delete(h);
  if (type) headers.set("Content-Type", type);
  if (input.idempotencyKey !== undefined) headers.set("Idempotency-Key", input.idempotencyKey);
  const url = new URL(input.entry.tool.path, input.outer.url);
  return new Request(url, { method: input.entry.tool.method.toUpperCase(), headers, body, signal: input.outer.signal });
}

/** Calls the tool and answers its result, or its problem as a tool error (never a protocol error: the agent should see why). */
export async function callTool(input: CallInput, dispatch: Dispatch): Promise<CallResult> {
  let res: Response;
  try {
    const { body, type } = await bodyOf(input);
    res = await dispatch(innerRequest(input, body, type));
  } catch (err) {
    // Only the argument translation throws here (a file reference that cannot be read): the tool never ran, nothing was charged.
    if (!(err instanceof ApiError)) throw err;
    return errorResult(problemBody(err, input.requestId), "0", null);
  }
  const credits = res.headers.get(CREDITS_HEADER) ?? "0";
  const requestId = res.headers.get("X-Request-Id");
  const body = (await res.json().catch(() => ({ detail: `The tool answered HTTP ${res.status} without a JSON body.` }))) as Record<string, unknown>;
  if (!res.ok) return errorResult(body, credits, requestId);
  const meta = {
    request_id: requestId,
    credits_charged: Number(credits),
    ...(res.headers.get("Idempotent-Replayed") === "true" ? { idempotent_replayed: true } : {}),
  };
  return { content: [{ type: "text", text: summaryOf(input.entry.listing.title, body, meta.credits_charged) }], structuredContent: body, _meta: meta };
}

function errorResult(problem: Record<string, unknown>, credits: string, requestId: string | null): CallResult {
  const id = requestId ?? (problem.request_id as string | undefined) ?? null;
  const text = `${problem.code ?? "error"} (HTTP ${problem.status ?? "?"}): ${problem.detail ?? problem.title ?? "the call failed"}`;
  return { content: [{ type: "text", text }], structuredContent: problem, isError: true, _meta: { request_id: id, credits_charged: Number(credits) } };
}

/** Inline answers (Markdown, metadata, reports) longer than this are in structuredContent only; files are always links. */
const INLINE_TEXT_CHARS = 100_000;

/** One line naming the outcome and its link, then the answer itself when it is small enough to read inline. */
function summaryOf(title: string, body: Record<string, unknown>, credits: number): string {
  const link = [body.file_url, body.url, body.output_url, body.download_url].find((v) => typeof v === "string");
  const head = `${title} finished${link ? `: ${link}` : ""} (${credits} credits).`;
  const full = JSON.stringify(body);
  return full.length <= INLINE_TEXT_CHARS ? `${head}\n${full}` : `${head} The full answer (${full.length} characters) is in structuredContent.`;
}
