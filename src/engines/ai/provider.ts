import type { Env } from "../../env";
import { settingsOf } from "../../settings";
import { AI_BUDGETS } from "./budgets";
import { openAiCompatible } from "./openai-compatible";
import { withOneRetry } from "./retry";
import { AiError, type ChatAnswer, type ChatBackend, type ChatRequest, type ModelKind } from "./types";
import { WORKERS_AI_MODELS, workersAi } from "./workers-ai";

// The one entry to a model: picks the backend for a kind of model, bounds
// each attempt's time, retries once, and cuts the answer to its budget.
// An OpenAI-compatible server named by AI_BASE_URL with a model for the
// kind wins over the Workers AI binding: a self-hoster who set it meant it.

interface Route {
  backend: ChatBackend;
  model: string;
}

export function routeFor(env: Env, kind: ModelKind): Route | null {
  const s = settingsOf(env);
  const named = kind === "text" ? s.AI_TEXT_MODEL : s.AI_VISION_MODEL;
  if (s.AI_BASE_URL && named) return { backend: openAiCompatible(s.AI_BASE_URL, s.AI_API_KEY), model: named };
  if (env.AI) return { backend: workersAi(env.AI), model: named ?? WORKERS_AI_MODELS[kind] };
  return null;
}

export function modelConfigured(env: Env, kind: ModelKind): boolean {
  return routeFor(env, kind) !== null;
}

/** Whether a tool's AI option can run here; without a model it is a 422 and nothing is charged. */
export const textModelConfigured = (env: Env): boolean => modelConfigured(env, "text");
export const visionModelConfigured = (env: Env): boolean => modelConfigured(env, "vision");

/** One chat call; throws AiError when no model is configured for the kind or the call fails twice. */
export async function chat(env: Env, req: ChatRequest): Promise<ChatAnswer> {
  const route = routeFor(env, req.kind);
  if (!route) throw new AiError("upstream", `No ${req.kind} model is configured.`, 503);
  const timeoutMs = req.timeoutMs ?? settingsOf(env).AI_TIMEOUT_MS ?? AI_BUDGETS.timeoutMs;
  const text = await withOneRetry(() => route.backend.send(req, route.model, AbortSignal.timeout(timeoutMs)), AI_BUDGETS.retryBackoffMs);
  return { text: text.slice(0, AI_BUDGETS.maxAnswerChars), model: route.model };
}
