import { describe, expect, it } from "vitest";
import type { AiError } from "../../../src/engines/ai/types";
import { type AiBinding, WORKERS_AI_MODELS, workersAi } from "../../../src/engines/ai/workers-ai";
import type { Env } from "../../../src/env";
import { accountWithKey } from "../../support/accounts";
import { postFormWith } from "../../support/ai";
import { file, withKey } from "../../support/http";
import { layoutPdf } from "../../support/pdf.mjs";

// The Workers AI adapter with a scripted `AI` binding: what it sends, how it
// reads `{response}`, how failures are classed, and that a binding alone
// configures every AI path through the Worker.

interface Call {
  model: string;
  inputs: { messages: { role: string; content: unknown }[]; max_tokens: number; response_format?: unknown };
}

function scripted(answers: (unknown | Error | "hang")[]): AiBinding & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs: inputs as Call["inputs"] });
      const next = answers.shift();
      if (next === "hang") return new Promise(() => {});
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const signal = () => new AbortController().signal;

describe("Workers AI adapter", () => {
  it("sends OpenAI-style messages with images as data URLs, max_tokens and JSON mode, and reads {response}", async () => {
    const ai = scripted([{ response: "hello" }]);
    const text = await workersAi(ai).send(
      {
        kind: "vision",
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "look" },
        ],
        images: [{ mime: "image/png", data: new Uint8Array([137, 80, 78, 71]) }],
        json: true,
        maxTokens: 123,
      },
      WORKERS_AI_MODELS.vision,
      signal(),
    );
    expect(text).toBe("hello");
    const [call] = ai.calls;
    expect(call.model).toBe("@cf/meta/llama-4-scout-17b-16e-instruct");
    expect(call.inputs.max_tokens).toBe(123);
    expect(call.inputs.response_format).toEqual({ type: "json_object" });
    expect(call.inputs.messages[0]).toEqual({ role: "system", content: "sys" });
    expect(call.inputs.messages[1].content).toEqual([
      { type: "text", text: "look" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" } },
    ]);
  });

  it("a JSON-mode object response is serialised back to text; a missing response is empty", async () => {
    const backend = workersAi(scripted([{ response: { total: 5 } }, {}]));
    const req = { kind: "text" as const, messages: [{ role: "user" as const, content: "x" }], maxTokens: 10 };
    expect(await backend.send(req, "m", signal())).toBe('{"total":5}');
    expect(await backend.send(req, "m", signal())).toBe("");
  });

  it("classes failures: capacity and 429 retryable, bad input not, a hang is a timeout", async () => {
    const req = { kind: "text" as const, messages: [{ role: "user" as const, content: "x" }], maxTokens: 10 };
    const fail = async (answer: unknown, s = signal()) => {
      try {
        await workersAi(scripted([answer])).send(req, "m", s);
      } catch (err) {
        return err as AiError;
      }
      throw new Error("expected a failure");
    };
    const busy = await fail(new Error("3040: Capacity temporarily exceeded, please try again."));
    expect([busy.failure, busy.retryable]).toEqual(["rate_limited", true]);
    const bad = await fail(new Error("5006: Invalid input: messages must be an array"));
    expect([bad.failure, bad.retryable]).toEqual(["upstream", false]);
    const broken = await fail(new Error("internal server error"));
    expect([broken.failure, broken.retryable]).toEqual(["upstream", true]);
    const hung = await fail("hang", AbortSignal.timeout(50));
    expect([hung.failure, hung.retryable]).toEqual(["timeout", true]);
  });
});

describe("Workers AI binding through the Worker", () => {
  const doc = () => layoutPdf([[{ text: "A plain sentence for the binding test.", x: 72, y: 100 }]]);

  it("an AI binding alone configures cleanup with the default text model", async () => {
    const ai = scripted([]);
    ai.run = async (model, inputs) => {
      ai.calls.push({ model, inputs: inputs as Call["inputs"] });
      const user = (inputs as Call["inputs"]).messages.find((m) => m.role === "user");
      return { response: user?.content };
    };
    const acct = await accountWithKey({ plan: "pro", credits: 1000 });
    const res = await postFormWith(
      { AI: ai } as Partial<Env>,
      "/api/v1/pdf/to-markdown",
      { file: file(await doc(), "d.pdf"), llm_cleanup: "true" },
      withKey(acct.key),
    );
    const body = (await res.json()) as { engine: string; markdown: string };
    expect(res.status).toBe(200);
    expect(body.engine).toBe("layout+llm");
    expect(body.markdown).toContain("A plain sentence for the binding test.");
    expect(ai.calls.map((c) => c.model)).toEqual([WORKERS_AI_MODELS.text]);
  });

  it("AI_VISION_MODEL names the binding's vision model; AI extract vision sends the page image", async () => {
    const ai = scripted([{ response: { title: "A plain sentence" } }]);
    const acct = await accountWithKey({ plan: "pro", credits: 1000 });
    const res = await postFormWith(
      { AI: ai, AI_VISION_MODEL: "@cf/meta/llama-3.2-11b-vision-instruct" } as Partial<Env>,
      "/api/v1/ai/extract-data",
      { file: file(await doc(), "d.pdf"), engine: "vision" },
      withKey(acct.key),
    );
    const body = (await res.json()) as { engine: string; data: unknown; parsed_ok: boolean };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ engine: "vision", parsed_ok: true, data: { title: "A plain sentence" } });
    expect(ai.calls[0].model).toBe("@cf/meta/llama-3.2-11b-vision-instruct");
    const parts = ai.calls[0].inputs.messages.at(-1)?.content as { type: string }[];
    expect(parts.filter((p) => p.type === "image_url")).toHaveLength(1);
  });
});
