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

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

const milliseconds = z
  .string()
  .regex(/^[1-9]\d*$/, "must be a whole number of milliseconds")
  .transform(Number)
  .optional();

const SETTINGS = z.object({
  /** Source of the dashboard-JWT key and, unless their own secrets are set, of the file-link and webhook keys. */
  JWT_SECRET: z.string({ error: "is not set" }).min(16, "must be at least 16 characters"),
  ADMIN_TOKEN: optionalText,
  FILES_SIGNING_SECRET: optionalText,
  /** Seals webhook signing secrets at rest; falls back to JWT_SECRET (README, Webhooks). */
  WEBHOOK_SECRET_KEY: optionalText,
  /** Sender address of outgoing mail, on a domain onboarded to Email Service. */
  MAIL_FROM: optionalText.pipe(z.email({ error: "must be an e-mail address" }).optional()),
  PUBLIC_FILES_BASE_URL: optionalText.pipe(z.url({ error: "must be an absolute URL" }).optional()),
  /**
   * Where links in mail (sign-in, invitations) lead, e.g. "https://docapi.example.com".
   * Unset, a link uses the origin the request arrived at.
   */
  CONSOLE_ORIGIN: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) origin such as https://docapi.example.com" })
      .refine((o) => new URL(o).origin === o.replace(/\/$/, ""), "must be an origin only (scheme, host and port; no path)")
      .transform((o) => new URL(o).origin)
      .optional(),
  ),
  ALLOW_INSECURE_WEBHOOKS: flag,
  ALLOW_PRIVATE_WEBHOOK_TARGETS: flag,
  /** Tests only: shortens the 10 s webhook send timeout. */
  WEBHOOK_SEND_TIMEOUT_MS: milliseconds,
  /**
   * Dev and tests only: exact loopback origins the HTML renderer may load
   * (a local page server). Only loopback hosts are accepted, so even a
   * misconfigured production can never open private or metadata addresses.
   */
  BROWSER_DEV_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const origins = (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const o of origins) {
        const ok = URL.canParse(o) && new URL(o).origin === o && LOOPBACK_HOSTS.has(new URL(o).hostname);
        if (!ok) ctx.addIssue({ code: "custom", message: `entry ${o} must be a loopback origin such as http://127.0.0.1:8788` });
      }
      return origins;
    }),
  /** Tests only: shortens the 30 s page-load timeout of the HTML renderer. */
  BROWSER_PAGE_TIMEOUT_MS: milliseconds,
  /** OpenAI-compatible model server (docs/tools/ai.md); with its model names it serves instead of the Workers AI binding. */
  AI_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:11434/v1" }).optional()),
  AI_API_KEY: optionalText,
  AI_TEXT_MODEL: optionalText,
  AI_VISION_MODEL: optionalText,
  /** Console sign-in (docs/operations.md): `open` lets an unknown e-mail's sign-in link create a free account. */
  SIGNUP: z.enum(["open", "closed"], { error: "must be open or closed" }).default("closed"),
  /** Dev and tests only: serves the outbox at GET /dev/mailbox (src/routes/dev-mailbox.ts). */
  DEV_MAILBOX: flag,
  /** Per model call; 60 s by default (src/engines/ai/budgets.ts). */
  AI_TIMEOUT_MS: milliseconds,
});

export type Settings = z.output<typeof SETTINGS>;

/** A setting's name: each is a variable or secret of `Env`, which derives them from this list (src/env.ts). */
export type SettingName = keyof typeof SETTINGS.shape;

/**
 * The settings as the runtime hands them to the Worker: strings from
 * wrangler.toml's [vars], secrets and .dev.vars, any of them possibly unset
 * or malformed until settingsOf has checked it.
 */
export type SettingVariables = { [K in SettingName]?: string };

/** Every setting this file checks (docs/operations.md lists them; test/platform/configuration.test.ts holds the two together). */
export const SETTING_NAMES = Object.keys(SETTINGS.shape);

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
