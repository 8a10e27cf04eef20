import type { Principal } from "../auth/principal";
import { PLANS } from "../config";
import { ApiError } from "../errors";
import type { Operation, ToolDef } from "./define";

// Pure policy: who may run which operation. No I/O here.

export function checkAccess(tool: ToolDef, op: Operation, p: Principal, req: Request): void {
  if (p.kind === "anonymous") {
    if (op.access !== "free-try") throw new ApiError("unauthorized", `${op.name} requires an API key or a dashboard token.`);
    if (tool.anonymousNeedsOrigin && !req.headers.get("Origin")) {
      throw new ApiError("unauthorized", `${tool.name} without credentials is only available from a browser; send an API key.`);
    }
    return;
  }
  if (op.access.startsWith("plan:")) {
    const feature = op.access.slice(5) as keyof (typeof PLANS)["free"];
    if (!PLANS[p.plan][feature]) {
      throw new ApiError("plan_required", `${op.name} is not included in the ${p.plan} plan.`);
    }
  }
}

function inScope(p: Extract<Principal, { kind: "key" }>, key: string): boolean {
  return p.scopes.length === 0 || p.scopes.includes("*") || p.scopes.includes(key);
}

/**
 * Before the body is read: the key may run tools at all (`write`) and its
 * scopes name at least one of this tool's operations.
 */
export function checkKeyForTool(tool: ToolDef, p: Principal): void {
  if (p.kind !== "key") return;
  if (!p.permissions.includes("write")) throw new ApiError("permission_denied", "This key lacks the 'write' permission needed to run tools.");
  if (!tool.operations.some((op) => inScope(p, op.key))) {
    throw new ApiError("scope_denied", `This key's scopes do not include '${tool.operations[0].key}'.`);
  }
}

/** After validation: the operation the input selected (engine=vision...) is in scope. */
export function checkKeyForOperation(op: Operation, p: Principal): void {
  if (p.kind === "key" && !inScope(p, op.key)) {
    throw new ApiError("scope_denied", `This key's scopes do not include '${op.key}'.`);
  }
}

export function selectOperation<I>(tool: ToolDef, input: I): Operation {
  const pick = (tool as ToolDef & { selectOperation?: (i: I) => string }).selectOperation;
  if (!pick) return tool.operations[0];
  const key = pick(input);
  const op = tool.operations.find((o) => o.key === key);
  if (!op) throw new Error(`tool ${tool.id} selected unknown operation ${key}`);
  return op;
}

/**
 * Whether some operation of the tool is open to this caller: its access
 * class and plan, and for a key the `write` permission and its scopes. What
 * an MCP client's tools/list shows; the call itself is still judged in full.
 */
export function mayRun(tool: ToolDef, p: Principal): boolean {
  if (p.kind === "key" && !p.permissions.includes("write")) return false;
  return tool.operations.some((op) => {
    if (p.kind === "anonymous") return op.access === "free-try";
    if (p.kind === "key" && !inScope(p, op.key)) return false;
    return !op.access.startsWith("plan:") || Boolean(PLANS[p.plan][op.access.slice(5) as keyof (typeof PLANS)["free"]]);
  });
}
