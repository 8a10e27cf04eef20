import { openAiMessages } from "./data-url";
import { AiError, type ChatBackend, type ChatRequest } from "./types";

// Workers AI through the `AI` binding (wrangler.toml `[ai] binding = "AI"`).
// Both default models take OpenAI-style messages; Llama 4 Scout also takes
// image_url parts with data: URLs, so one message shape serves both kinds.

/** Default models (docs/tools/ai.md); AI_TEXT_MODEL and AI_VISION_MODEL replace them. */
export const WORKERS_AI_MODELS = {
  text: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  vision: "@cf/meta/llama-4-scout-17b-16e-instruct",
} as const;

/** The part of the binding we use; tests script it. */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export function workersAi(binding: AiBinding): ChatBackend {
  return {
    name: "workers-ai",
    async send(req: ChatRequest, model: string, signal: AbortSignal): Promise<string> {
      const inputs = {
        messages: openAiMessages(req),
        max_tokens: req.maxTokens,
        temperature: 0,
        ...(req.json ? { response_format: { type: "json_object" } } : {}),
      };
      let out: unknown;
      try {
        // The binding takes no AbortSignal: the race gives up waiting, which is what bounds the call's time.
        out = await Promise.race([binding.run(model, inputs), aborted(signal)]);
      } catch (err) {
        if (err instanceof AiError) throw err;
        throw classify(err);
      }
      return responseOf(out);
    },
  };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new AiError("timeout", "Workers AI did not answer in time."));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}

/** Workers AI errors carry no status; their messages name capacity and rate problems. */
function classify(err: unknown): AiError {
  const message = err instanceof Error ? err.message : String(err);
  if (/\b429\b|rate limit|too many requests|capacity/i.test(message)) return new AiError("rate_limited", `Workers AI: ${message}`, 429);
  if (/\b4\d\d\b|invalid|bad input|not found/i.test(message)) return new AiError("upstream", `Workers AI: ${message}`, 400);
  return new AiError("upstream", `Workers AI: ${message}`, 500);
}

/** `{response}` as text; JSON mode may answer an object, which is serialised back for the same parsing path. */
function responseOf(out: unknown): string {
  const response = (out as { response?: unknown } | null)?.response;
  if (typeof response === "string") return response;
  if (response && typeof response === "object") return JSON.stringify(response);
  if (response === undefined || response === null) return "";
  throw new AiError("bad_answer", "Workers AI answered without a text response.");
}
