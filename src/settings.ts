import { z } from "zod";
import type { Env } from "./env";
import { ApiError } from "./errors";

// The Worker's variables and secrets, read in one place and checked once per
// isolate (wrangler.toml and the README's Configuration table list them).
// A missing or malformed required value is one clear log line and a 503
// problem naming it, never a 500 from deep inside a request.

const flag = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const SETTINGS = z.object({
  /** Source of the dashboard-JWT key and, unless their own secrets are set, of the file-link and webhook keys. */
  JWT_SECRET: z.string({ error: "is not set" }).min(16, "must be at least 16 characters"),
  ADMIN_TOKEN: optionalText,
  FILES_SIGNING_SECRET: optionalText,
  WEBHOOK_SECRET_KEY: optionalText,
  MAIL_FROM: optionalText.pipe(z.email({ error: "must be an e-mail address" }).optional()),
  PUBLIC_FILES_BASE_URL: optionalText.pipe(z.url({ error: "must be an absolute URL" }).optional()),
  ALLOW_INSECURE_WEBHOOKS: flag,
  ALLOW_PRIVATE_WEBHOOK_TARGETS: flag,
  WEBHOOK_SEND_TIMEOUT_MS: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a whole number of milliseconds")
    .transform(Number)
    .optional(),
});

export type Settings = z.output<typeof SETTINGS>;

const parsed = new WeakMap<Env, Settings | ApiError>();

/** The checked settings of this environment; throws a 503 ApiError naming every problem. */
export function settingsOf(env: Env): Settings {
  let result = parsed.get(env);
  if (!result) {
    const check = SETTINGS.safeParse(env);
    if (check.success) result = check.data;
    else {
      const problems = check.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ");
      result = new ApiError("service_unavailable", `The server is not configured: ${problems}.`);
      console.error("configuration error:", problems);
    }
    parsed.set(env, result);
  }
  if (result instanceof ApiError) throw result;
  return result;
}
