import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { buildApp } from "../../src/app";
import type { Env } from "../../src/env";
import { BASE, type AuthHeaders, form, freshIp } from "./http";

// AI tests: requests through the Worker's app with an environment that adds
// an AI backend (the scripted stub of test/support/ai-stub.mjs, or a
// scripted Workers AI binding), leaving the shared bindings unconfigured
// for every other test. Each test names its own models, so its script and
// its recorded requests are its own.

const app = buildApp();

export interface StubStep {
  content?: string;
  status?: number;
  body?: string;
  hangMs?: number;
  bytes?: number;
  raw?: string;
}

export interface StubRequest {
  body: {
    model: string;
    max_tokens: number;
    response_format?: { type: string };
    messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  };
  authorization: string | null;
}

export interface StubModels {
  text: string;
  vision: string;
}

export const stubOrigin = (): string => (env as unknown as { AI_STUB_ORIGIN: string }).AI_STUB_ORIGIN;

/** Fresh model names, so this test's script is its own. */
export function stubModels(): StubModels {
  const id = crypto.randomUUID();
  return { text: `stub-text-${id}`, vision: `stub-vision-${id}` };
}

export async function script(model: string, steps: StubStep[]): Promise<void> {
  const res = await fetch(`${stubOrigin()}/script/${encodeURIComponent(model)}`, { method: "POST", body: JSON.stringify(steps) });
  if (!res.ok) throw new Error(`stub script: ${res.status}`);
}

export async function stubRequests(model: string): Promise<StubRequest[]> {
  return (await (await fetch(`${stubOrigin()}/requests/${encodeURIComponent(model)}`)).json()) as StubRequest[];
}

/** Environment overrides that point the Worker at the stub; leave a kind out to leave it unconfigured. */
export function stubEnv(models: Partial<StubModels>, extra: Partial<Record<keyof Env, unknown>> = {}): Partial<Env> {
  return {
    AI_BASE_URL: `${stubOrigin()}/v1`,
    ...(models.text ? { AI_TEXT_MODEL: models.text } : {}),
    ...(models.vision ? { AI_VISION_MODEL: models.vision } : {}),
    ...extra,
  } as Partial<Env>;
}

/** A multipart POST through the app with `overrides` on top of the test bindings. */
export async function postFormWith(overrides: Partial<Env>, path: string, fields: Parameters<typeof form>[0], auth: AuthHeaders = {}): Promise<Response> {
  const headers = new Headers(auth);
  headers.set("CF-Connecting-IP", freshIp());
  return await app.fetch(new Request(BASE + path, { method: "POST", body: form(fields), headers }), { ...env, ...overrides }, createExecutionContext());
}

/** The image parts of a recorded request's last user message. */
export function imagesOf(req: StubRequest): string[] {
  const last = req.body.messages.filter((m) => m.role === "user").at(-1);
  if (!last || typeof last.content === "string") return [];
  return last.content.filter((p) => p.type === "image_url").map((p) => p.image_url?.url ?? "");
}

/** All the text a recorded request carried (system and user messages). */
export function promptOf(req: StubRequest): string {
  return req.body.messages.map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("\n"))).join("\n");
}
