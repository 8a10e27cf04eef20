import { describe, expect, it } from "vitest";
import { type ErrorCode, Problem } from "../../src/errors";
import { jsonSchema } from "../../src/http/route-openapi";
import { PIPELINE_PROBLEMS } from "../../src/tools/problems";
import { TOOLS } from "../../src/tools/registry";
import { type Operation, publicDocument } from "./support";

// A tool's operation lists the codes a call of it can answer, not the whole
// table: a client switching on `code` should not be told merge can answer a
// sign-in link's expiry.

/** Codes only sign-in, keys, team, webhooks and files give. */
const NOT_TOOL_CODES: ErrorCode[] = [
  "magic_link_invalid",
  "magic_link_expired",
  "magic_link_used",
  "forbidden",
  "key_limit_reached",
  "webhook_limit_reached",
  "not_found",
  "method_not_allowed",
  "conflict",
  "last_owner",
  "webhook_inactive",
  "delivery_not_redeliverable",
  "gone",
  "unsafe_webhook_url",
  "request_cancelled",
];

const codesOf = (o: Operation) => Object.values(o.responses).flatMap((r) => r["x-problem-codes"] ?? []);

async function toolCodes(): Promise<Map<string, string[]>> {
  const doc = await publicDocument();
  return new Map(TOOLS.map((t) => [t.id, codesOf(doc.paths[t.path][t.method])]));
}

describe("problem codes of tool operations", () => {
  it("list no code that belongs to accounts, keys or webhooks", async () => {
    for (const [id, codes] of await toolCodes()) {
      expect(
        codes.filter((c) => NOT_TOOL_CODES.includes(c as ErrorCode)),
        id,
      ).toEqual([]);
    }
  });

  it("list at least the codes every tool call can give", async () => {
    for (const [id, codes] of await toolCodes()) expect(codes, id).toEqual(expect.arrayContaining([...PIPELINE_PROBLEMS]));
  });

  it("list what a tool declares and not what another tool's engine gives", async () => {
    const codes = await toolCodes();
    expect(codes.get("merge-pdf")).toContain("too_few_files");
    expect(codes.get("html-to-pdf")).toEqual(expect.arrayContaining(["url_refused", "page_load_timeout", "browser_unavailable"]));
    expect(codes.get("image-compress")).toEqual(expect.arrayContaining(["invalid_image", "image_too_large"]));
    expect(codes.get("merge-pdf")).not.toContain("url_refused");
    expect(codes.get("image-compress")).not.toContain("ai_unavailable");
  });
});

describe("the Problem component", () => {
  it("is the zod Problem schema the runtime writes its bodies from", async () => {
    const doc = await publicDocument();
    expect((doc.components.schemas as Record<string, unknown>).Problem).toEqual(jsonSchema(Problem, "output"));
  });
});
