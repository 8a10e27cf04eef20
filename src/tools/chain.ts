import { z } from "zod";
import { completedFields, completedJob, credits } from "./common";
import { type ChainPlan, CHAIN_ID, keepField, planChain, stepsField } from "./chain-plan";
import { runChain } from "./chain-run";
import { defineTool, type ToolDef } from "./define";
import { uploadEstimate } from "./memory-estimate";

// Chain (beyond the original API contract; docs/reference/chain.md): up to
// ten tools in one request, each step's output the next one's input. One
// debit of the steps' credits up front (the operation costs 1 credit a
// unit, and a call's units are its steps' credits), one refund if any step
// fails. Made by the registry with its tool list, so neither imports the
// other.

const stepReport = z.object({
  step: z.number().int(),
  tool: z.string(),
  operation: z.string(),
  credits,
  output_urls: z.array(z.string()).meta({ description: "Where this step's outputs were stored: the last step's, and those `keep` names; empty otherwise." }),
  result: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: "The step's own answer, as its route would give it; null for a step whose outputs were not kept." }),
});

export function chainTool(tools: () => readonly ToolDef[]) {
  let byId: ReadonlyMap<string, ToolDef> | undefined;
  const lookup = () => (byId ??= new Map(tools().map((t) => [t.id, t])));
  const request = z
    .looseObject({ steps: stepsField, keep: keepField })
    .meta({ description: 'In multipart: `steps` as JSON text, `keep` as text, and any file parts the steps name as "$file:<part>".' })
    .transform((input, ctx) => {
      const parts = new Map(Object.entries(input).flatMap(([k, v]) => (v instanceof File ? [[k, v] as const] : [])));
      const plan = planChain(input.steps, input.keep, parts, lookup(), ctx);
      return plan ? { plan, parts } : z.NEVER;
    });
  return defineTool({
    id: CHAIN_ID,
    name: "Chain",
    method: "post",
    path: "/api/v1/chain",
    body: "json-or-multipart",
    summary:
      "Run up to 10 tools in one request, each step's output the next one's input (\"$prev\"); charged the sum of the steps' credits once, refunded whole if a step fails; only the last step's output is stored unless `keep` names others. Beyond the original API contract.",
    // 1 credit a unit, a call's units being its steps' credits: what the ledger records is the chain's sum.
    operations: [{ key: "chain", name: "Chain", credits: 1, access: "free-try" }],
    quantity: (input: { plan: ChainPlan }) => input.plan.credits,
    request,
    // Its files (parts and inline Base64) by the default rule; each step raises the reservation to its own tool's estimate as it starts.
    memory: (input) => uploadEstimate({ parts: [...input.parts.values()], fields: input.plan.steps.map((s) => s.fields) }),
    response: z.object({
      ...completedJob,
      file_url: z.string().nullable().meta({ description: "The last step's output when it stored one file." }),
      output_urls: z.array(z.string()).meta({ description: "Every output the last step stored." }),
      steps: z.array(stepReport),
      credits_charged: credits,
    }),
    async handler(ctx, input) {
      const started = performance.now();
      const { steps, outputs } = await runChain(ctx, input.plan, input.parts);
      const urls = outputs.flatMap((o) => (o.stored ? [o.stored.url] : []));
      return { body: { ...completedFields(ctx, started), file_url: urls.length === 1 ? urls[0] : null, output_urls: urls, steps } };
    },
  });
}
