// The AI seam's vocabulary: one chat call, whichever backend answers it
// (docs/tools/ai.md, Configuring a model: Workers AI in production, an OpenAI-compatible
// endpoint locally and in tests).

export type ModelKind = "text" | "vision";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatImage {
  mime: "image/png" | "image/jpeg";
  data: Uint8Array;
}

export interface ChatRequest {
  kind: ModelKind;
  messages: ChatMessage[];
  /** Attached to the last user message, in order. */
  images?: ChatImage[];
  /** Ask for a JSON object (response_format json_object); the answer is still parsed and checked by the caller. */
  json?: boolean;
  maxTokens: number;
  /** Per attempt; defaults to the configured AI timeout. */
  timeoutMs?: number;
}

export interface ChatAnswer {
  text: string;
  /** The model that answered, for logs. */
  model: string;
}

/** One backend: sends one attempt, throws AiError on failure (retries are the caller's, see retry.ts). */
export interface ChatBackend {
  readonly name: "workers-ai" | "openai-compatible";
  send(req: ChatRequest, model: string, signal: AbortSignal): Promise<string>;
}

export type AiFailure = "timeout" | "network" | "rate_limited" | "upstream" | "bad_answer" | "too_large";

/** A model call that failed; `retryable` says whether one more attempt may help. */
export class AiError extends Error {
  constructor(
    readonly failure: AiFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "AiError";
  }

  get retryable(): boolean {
    return (
      this.failure === "timeout" ||
      this.failure === "network" ||
      this.failure === "rate_limited" ||
      (this.failure === "upstream" && (this.status ?? 500) >= 500)
    );
  }
}
