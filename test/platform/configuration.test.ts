import { describe, expect, it } from "vitest";
import operations from "../../docs/operations.md?raw";
import envSource from "../../src/env.ts?raw";
import { SETTING_NAMES } from "../../src/settings";
import wranglerToml from "../../wrangler.toml?raw";

// The configuration is stated in four places that must agree: the settings
// the Worker checks (src/settings.ts), the Env interface the code reads
// (src/env.ts), the bindings and vars of wrangler.toml, and the one table an
// operator reads (docs/operations.md, "Settings and secrets").

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

/** Field names of `interface Env` in src/env.ts. */
function envFields(): Set<string> {
  const body = /export interface Env \{([\s\S]*?)\n\}/.exec(envSource)?.[1] ?? "";
  return new Set([...body.matchAll(/^\s+([A-Z][A-Z0-9_]*)\??:/gm)].map((m) => m[1]));
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

  it("lists every setting the Worker checks, and Env declares each", () => {
    expect(SETTING_NAMES.filter((n) => !table.has(n))).toEqual([]);
    expect(SETTING_NAMES.filter((n) => !env.has(n))).toEqual([]);
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
