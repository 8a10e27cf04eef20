import { AI_BUDGETS } from "./budgets";
import { openAiMessages } from "./data-url";
import { readBounded } from "./http-body";
import { AiError, type ChatBackend, type ChatRequest } from "./types";

// Any OpenAI-compatible chat server (Ollama, llama.cpp's server, vLLM, a
// hosted gateway, the test stub): POST {AI_BASE_URL}/chat/completions.

export function openAiCompatible(baseUrl: string, apiKey: string | undefined): ChatBackend {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    name: "openai-compatible",
    async send(req: ChatRequest, model: string, signal: AbortSignal): Promise<string> {
      const body = {
        model,
        messages: openAiMessages(req),
        max_tokens: req.maxTokens,
        temperature: 0,
        stream: false,
        ...(req.json ? { response_format: { type: "json_object" } } : {}),
      };
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal,
        });
      } catch (err) {
        if (signal.aborted) throw new AiError("timeout", "The model server did not answer in time.");
        throw new AiError("network", `The model server could not be reached: ${err instanceof Error ? err.message : String(err)}`);
      }
      let raw: string;
      try {
        raw = await readBounded(res, AI_BUDGETS.maxResponseBytes);
      } catch (err) {
        if (signal.aborted) throw new AiError("timeout", "The model server did not finish its answer in time.");
        throw err;
      }
      if (res.status === 429) throw new AiError("rate_limited", "The model server is rate limiting.", 429);
      if (!res.ok) throw new AiError("upstream", `The model server answered ${res.status}.`, res.status);
      return contentOf(raw);
    },
  };
}

/** choices[0].message.content of a chat completion, checked: anything else is a bad answer. */
function contentOf(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AiError("bad_answer", "The model server's answer is not JSON.");
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content === "string") return content;
  // Some servers answer content as parts.
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  if (content === null || content === undefined) return "";
  throw new AiError("bad_answer", "The model server's answer has no message content.");
}
