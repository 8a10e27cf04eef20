import type { OutputUnit, Validator as CfValidator } from "@cfworker/json-schema";

// @cfworker/json-schema, loaded on first use. When its module is evaluated
// it builds a base URI from `self.location` if that global exists; Workers
// have none, but a runtime that defines a partial one (the vitest pool's
// `{ href: "" }`) makes that `new URL` throw and would fail the whole
// Worker at start-up. So the module is imported lazily, with such a partial
// `location` hidden for the moment of evaluation.

export type { OutputUnit };
export type Validator = CfValidator;

let loading: Promise<typeof import("@cfworker/json-schema")> | undefined;

export async function newValidator(schema: unknown): Promise<Validator> {
  loading ??= importWithoutPartialLocation().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  const { Validator } = await loading;
  return new Validator(schema as object, "2020-12", false);
}

async function importWithoutPartialLocation(): Promise<typeof import("@cfworker/json-schema")> {
  const global = globalThis as { location?: { origin?: string } };
  const own = Object.getOwnPropertyDescriptor(globalThis, "location");
  const partial = global.location !== undefined && typeof global.location?.origin !== "string";
  if (!partial || (own && !own.configurable)) return import("@cfworker/json-schema");
  Object.defineProperty(globalThis, "location", { value: undefined, configurable: true, writable: true });
  try {
    return await import("@cfworker/json-schema");
  } finally {
    if (own) Object.defineProperty(globalThis, "location", own);
    else delete (globalThis as { location?: unknown }).location;
  }
}
