import type { Principal } from "../auth/principal";
import { LIMITS } from "../config";
import { urlPolicy, refusalOf } from "../engines/browser/url-policy";
import { sniffFormat } from "../engines/images/formats/sniff";
import { EXTENSION } from "../engines/images/types";
import { hasPdfHeader } from "../engines/mupdf/core/sniff";
import { decodeBase64 } from "../engines/text/base64";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { accountStored } from "../jobs/store";
import { holdMemory } from "../runtime/memory";
import { keyOfOutputUrl } from "../storage/outputs";
import { checkSignature, objectKeyOf } from "../storage/signed-url";

// A file argument of an MCP tool call. An agent cannot attach a multipart
// part, so it names the bytes: inline as Base64, an http(s) URL (fetched under
// the HTML renderer's SSRF rules and the upload byte cap), or the output URL
// an earlier call of the same account answered (read from storage, never
// over the network). The tool then receives an ordinary File.

export const FILE_REFERENCE = {
  type: "object",
  description:
    "A file: `base64` (its bytes) or `url` (an http(s) URL, or the file_url/url an earlier call of this account answered, which is read from storage). `filename` names it; by default it comes from the URL or from the bytes' type.",
  properties: {
    base64: { type: "string", contentEncoding: "base64", description: "The file's bytes in Base64 (a data: URL prefix is accepted)." },
    url: { type: "string", description: "An http(s) URL, or an output URL of an earlier call of this account." },
    filename: { type: "string", maxLength: 255, description: "The file's name; tools that judge the type by name read its extension (.pdf)." },
    mime_type: { type: "string", maxLength: 255 },
  },
  additionalProperties: false,
  anyOf: [{ required: ["base64"] }, { required: ["url"] }],
} as const;

export interface FileSource {
  env: Env;
  /** The origin the MCP request came to: output URLs of this deployment are under it. */
  origin: string;
  principal: Principal;
  signal: AbortSignal | null;
}

const MAX_REDIRECTS = 5;
const FETCH_TIMEOUT_MS = 30_000;

const fail = (field: string, message: string, code: "validation_failed" | "invalid_base64" | "file_unavailable" = "validation_failed") =>
  new ApiError(code, `${field}: ${message}`, { errors: [{ field, message }] });

/** The File a reference names. Its bytes are held in the call's memory reservation twice: here, and the tool's parsed copy. */
export async function resolveFile(raw: unknown, field: string, source: FileSource): Promise<File> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw fail(field, "must be an object with base64 or url.");
  const ref = raw as Record<string, unknown>;
  const text = (k: string) => (typeof ref[k] === "string" ? (ref[k] as string) : undefined);
  const [base64, url, filename, mime] = [text("base64"), text("url"), text("filename"), text("mime_type")];
  if ((base64 === undefined) === (url === undefined)) throw fail(field, "give exactly one of base64 and url.");
  const fetched = base64 !== undefined ? await inline(base64, field) : await byUrl(url as string, field, source);
  const name = filename?.trim() || fetched.name || defaultName(fetched.bytes);
  return new File([fetched.bytes], name, { type: mime ?? fetched.type ?? "application/octet-stream" });
}

interface Fetched {
  bytes: Uint8Array;
  name?: string;
  type?: string;
}

async function inline(base64: string, field: string): Promise<Fetched> {
  const bytes = decodeBase64(base64);
  if (!bytes) throw fail(field, "base64 is not valid Base64.", "invalid_base64");
  if (bytes.byteLength > LIMITS.fileBytes) throw new ApiError("payload_too_large", `${field}: the file exceeds ${LIMITS.fileBytes} bytes.`);
  await holdMemory(2 * bytes.byteLength);
  return { bytes };
}

async function byUrl(url: string, field: string, source: FileSource): Promise<Fetched> {
  const key = keyOfOutputUrl(source.env, source.origin, url);
  return key ? await stored(url, key, field, source) : await fetched(url, field, source);
}

/** An output of this deployment: only the account whose call stored it may name it. */
async function stored(url: string, key: string, field: string, source: FileSource): Promise<Fetched> {
  const { principal, env } = source;
  const unknown = () => fail(field, "no output of this account has this URL.", "file_unavailable");
  if (principal.kind === "anonymous")
    throw fail(field, "output URLs are read for calls with an API key or token; send the file as base64.", "file_unavailable");
  if (!(await accountStored(env, principal.accountId, url))) throw unknown();
  let objectKey = key;
  if (key.startsWith("tmp/")) {
    const query = new URL(url).searchParams;
    const check = await checkSignature(env, key, query.get("expires"), query.get("sig"));
    if (check !== "valid") throw fail(field, check === "expired" ? "this output's link has expired." : "this output's link is not valid.", "file_unavailable");
    objectKey = await objectKeyOf(env, key);
  }
  const object = await env.FILES.get(objectKey);
  if (!object) throw unknown();
  await holdMemory(2 * object.size);
  return { bytes: new Uint8Array(await object.arrayBuffer()), name: key.slice(key.lastIndexOf("/") + 1), type: object.httpMetadata?.contentType };
}

/** An http(s) URL elsewhere: every hop checked as the HTML renderer checks what a page loads, the body capped as an upload. */
async function fetched(url: string, field: string, source: FileSource): Promise<Fetched> {
  const policy = urlPolicy(source.env);
  const signal = AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), ...(source.signal ? [source.signal] : [])]);
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = await refusalOf(target, policy);
    if (refusal) throw fail(field, `the URL is refused: ${refusal}`, "file_unavailable");
    let res: Response;
    try {
      res = await fetch(target, { redirect: "manual", signal });
    } catch (err) {
      throw fail(field, `the URL could not be fetched (${(err as Error).message}).`, "file_unavailable");
    }
    const location = res.headers.get("Location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      target = new URL(location, target).toString();
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw fail(field, `the URL answered HTTP ${res.status}.`, "file_unavailable");
    }
    const bytes = await capped(res, field);
    return { bytes, name: nameFrom(res, target), type: res.headers.get("Content-Type")?.split(";")[0].trim() || undefined };
  }
  throw fail(field, `the URL redirects more than ${MAX_REDIRECTS} times.`, "file_unavailable");
}

/** The body, refused past the upload cap whether or not a length was declared. */
async function capped(res: Response, field: string): Promise<Uint8Array> {
  const tooLarge = () => new ApiError("payload_too_large", `${field}: the file exceeds ${LIMITS.fileBytes} bytes.`);
  const declared = Number(res.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > LIMITS.fileBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = (res.body ?? new Blob([]).stream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > LIMITS.fileBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    await holdMemory(2 * value.byteLength);
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

function nameFrom(res: Response, url: string): string | undefined {
  const disposition = res.headers.get("Content-Disposition") ?? "";
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  try {
    if (star) return decodeURIComponent(star[1]);
    if (plain) return plain[1];
    const last = new URL(url).pathname.split("/").pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/** A name for bytes that came without one, from their signature: tools that judge by extension then see the right one. */
function defaultName(bytes: Uint8Array): string {
  if (hasPdfHeader(bytes)) return "file.pdf";
  const image = sniffFormat(bytes);
  return image ? `file.${EXTENSION[image]}` : "file";
}
