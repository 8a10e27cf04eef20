import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      CORPUS_AVAILABLE: "true" | "false";
      /** vitest.config.ts: the scripted OpenAI-compatible model server (test/support/ai-stub.mjs). */
      AI_STUB_ORIGIN: string;
      /** vitest.config.ts: a send_email binding that only mails ops@docapi.test. */
      EMAIL_ONLY_OPS: SendEmail;
    }
  }
}
