import { principalOf } from "../http/context";
import { callerScope, type Scope } from "../http/idempotency";
import { checkAccess, checkKeyForTool } from "./access";
import type { ToolDef } from "./define";

/**
 * A tool call's scope, after the checks the pipeline makes before it reads
 * the body (tools/access.ts): a caller those refuse gets no store at all, so
 * the pipeline answers the refusal itself (403 scope_denied with
 * X-Credits-Charged: 0) instead of any kept answer, and the refusal does not
 * occupy the key.
 */
export function toolScope(tool: ToolDef): Scope {
  return async (c) => {
    const p = await principalOf(c).catch(() => null);
    if (!p || p.kind === "anonymous") return null;
    try {
      checkAccess(tool, tool.operations[0], p, c.req.raw);
      checkKeyForTool(tool, p);
    } catch {
      return null;
    }
    return callerScope(c);
  };
}
