import { exports } from "cloudflare:workers";
import { Problem } from "../../src/errors";

// Black-box access to the Worker: every test request goes through the
// Worker's own fetch handler with real local bindings.

export const BASE = "http://api.test";

// The Worker's default export, reached the way the runtime reaches it.
const worker = exports as unknown as { default: { fetch(req: Request): Promise<Response> } };
export const ADMIN_TOKEN = "test-admin-token";

let ipCounter = Math.floor(Math.random() * 200);
/** A fresh client IP, so the anonymous per-IP rate limit does not couple tests. */
export function freshIp(): string {
  ipCounter++;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export async function call(path: string, init: RequestInit & { ip?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", init.ip ?? freshIp());
  const url = path.startsWith("http") ? path : BASE + path;
  return worker.default.fetch(new Request(url, { ...init, headers }));
}

export function form(fields: Record<string, string | Blob | File | (File | string)[] | undefined>): FormData {
  const fd = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) fd.append(name, v);
  }
  return fd;
}

/** An upload part: `data` named `name`, of type `type`. */
export function file(data: Uint8Array, name: string, type = "application/pdf"): File {
  return new File([data], name, { type });
}

export const pdfFile = (data: Uint8Array, name: string): File => file(data, name);

export async function postForm(path: string, fields: Parameters<typeof form>[0], auth: AuthHeaders = {}): Promise<Response> {
  return call(path, { method: "POST", body: form(fields), headers: auth });
}

export async function postJson(path: string, body: unknown, auth: AuthHeaders = {}): Promise<Response> {
  return call(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...auth } });
}

export type AuthHeaders = Record<string, string>;

export const withKey = (key: string): AuthHeaders => ({ "X-API-Key": key });
export const withToken = (token: string): AuthHeaders => ({ Authorization: `Bearer ${token}` });

/** Downloads an output URL through the Worker (GET /files/...). */
export async function download(url: string): Promise<Uint8Array> {
  const res = await call(url);
  if (res.status !== 200) throw new Error(`download ${url} -> ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

export type { Problem };

/** Asserts a problem+json answer and returns its body, parsed with the one Problem schema the Worker writes it from. */
export async function problem(res: Response): Promise<Problem> {
  const type = res.headers.get("Content-Type") ?? "";
  if (!type.includes("application/problem+json")) throw new Error(`expected problem+json, got ${res.status} ${type}: ${await res.text()}`);
  const body: unknown = await res.json();
  const parsed = Problem.safeParse(body);
  if (!parsed.success) throw new Error(`problem body does not match the Problem schema: ${JSON.stringify(body)}: ${parsed.error.message}`);
  return parsed.data;
}
