import { describe, expect, expectTypeOf, it } from "vitest";
import operations from "../../docs/operations.md?raw";
import type { Env } from "../../src/env";
import { SETTING_NAMES, type SettingName } from "../../src/settings";
import wranglerToml from "../../wrangler.toml?raw";

// The configuration is stated in four places that must agree: the settings
// the Worker checks (src/settings.ts), the Env interface the code reads
// (src/env.ts), the bindings and vars of wrangler.toml, and the one table an
// operator reads (docs/operations.md, "Settings and secrets"). Env takes
// every setting from SETTINGS by type, so those two agree by construction;
// what is left to check at run time is the table and wrangler.toml.

/** Names in the first column of the table under "## Settings and secrets". */
function tableNames(): Set<string> {
  const section = operations.split(/^## /m).find((s) => s.startsWith("Settings and secrets"));
  if (!section) throw new Error("docs/operations.md has no 'Settings and secrets' section");
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1];
    for (const m of first?.matchAll(/`([A-Z][A-Z0-9_]*)`/g) ?? []) names.add(m[1]);
  }
  return names;
}

/**
 * Every name of Env that is not a setting: the bindings, and the OCR secret
 * both Workers read (OcrCallerEnv). `satisfies` makes the compiler hold this
 * list to Env both ways (a name Env lacks, or one of Env left out, fails
 * `npm run typecheck`), so the checks below see all of Env.
 */
const NOT_SETTINGS = {
  DB: "D1",
  FILES: "R2",
  METER: "Durable Object",
  WEBHOOK_ENDPOINT: "Durable Object",
  WEBHOOK_QUEUE: "Queue",
  EMAIL: "send_email",
  BROWSER: "Browser Rendering",
  OCR: "service",
  OCR_SHARED_SECRET: "secret",
  ANON_LIMITER: "rate limit",
  AUTH_LIMITER: "rate limit",
  AI: "Workers AI",
} satisfies Record<Exclude<keyof Env, SettingName>, string>;

/** Every name of Env. */
function envFields(): Set<string> {
  return new Set([...Object.keys(NOT_SETTINGS), ...SETTING_NAMES]);
}

/** Binding names and [vars] of wrangler.toml, commented-out [ai] included (operators enable it). */
function wranglerNames(): { bindings: Set<string>; vars: Set<string> } {
  const bindings = new Set([...wranglerToml.matchAll(/^#?\s*(?:binding|name)\s*=\s*"([A-Z][A-Z0-9_]*)"/gm)].map((m) => m[1]));
  for (const m of wranglerToml.matchAll(/\{\s*name\s*=\s*"([A-Z][A-Z0-9_]*)"/g)) bindings.add(m[1]);
  const varsBlock = /^\[vars\]\n([\s\S]*?)(?=^\[)/m.exec(wranglerToml)?.[1] ?? "";
  const vars = new Set([...varsBlock.matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]));
  return { bindings, vars };
}

describe("the configuration table", () => {
  const table = tableNames();
  const env = envFields();
  const { bindings, vars } = wranglerNames();

  it("reads something from each source (a parser that found nothing would agree with everything)", () => {
    expect(table.size).toBeGreaterThan(15);
    expect(env.size).toBeGreaterThan(15);
    expect(bindings).toContain("DB");
    expect(vars).toContain("SIGNUP");
  });

  it("lists every setting the Worker checks, and Env has each (by type)", () => {
    expect(SETTING_NAMES.filter((n) => !table.has(n))).toEqual([]);
    expectTypeOf<SettingName>().toExtend<keyof Env>();
    // A setting's value reaches the Worker as a string, whatever SETTINGS makes of it.
    expectTypeOf<Env[SettingName]>().toEqualTypeOf<string | undefined>();
  });

  it("lists every binding and variable of Env, and nothing Env does not have", () => {
    expect([...env].filter((n) => !table.has(n))).toEqual([]);
    expect([...table].filter((n) => !env.has(n))).toEqual([]);
  });

  it("every binding and var of wrangler.toml is in Env (and so in the table)", () => {
    expect([...bindings].filter((n) => !env.has(n))).toEqual([]);
    expect([...vars].filter((n) => !env.has(n))).toEqual([]);
  });
});
