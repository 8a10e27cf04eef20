import type { Principal } from "../auth/principal";
import { mayRun } from "../tools/access";
import { type ToolDef, toolDescription } from "../tools/define";
import { TOOLS } from "../tools/registry";
import { FILE_REFERENCE } from "../tools/file-reference";
import { fieldKinds } from "../tools/json-fields";

// MCP's view of the tool registry: one MCP tool per declared tool, its input
// schema the very JSON Schema /openapi.json gives the request body, with
// each file part replaced by a file reference (an agent has no multipart
// form to attach bytes to). Nothing here is declared a second time.

type JsonSchema = Record<string, unknown>;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object" } & JsonSchema;
}

/** A declared tool and how MCP lists it. */
export interface McpToolEntry {
  tool: ToolDef;
  listing: McpTool;
}

function entryOf(tool: ToolDef): McpToolEntry {
  const { schema, files } = fieldKinds(tool);
  const properties = { ...(schema.properties ?? {}) };
  for (const [name, many] of files) {
    const { format: _format, items: _items, type: _type, ...rest } = properties[name];
    properties[name] = many ? { ...rest, type: "array", items: FILE_REFERENCE } : { ...rest, ...FILE_REFERENCE };
  }
  return {
    tool,
    listing: { name: tool.id, title: tool.name, description: toolDescription(tool), inputSchema: { ...schema, type: "object", properties } },
  };
}

let entries: ReadonlyMap<string, McpToolEntry> | undefined;

/** Every tool, by MCP name (its id). Built once: it is a pure function of the registry. */
export function mcpTools(): ReadonlyMap<string, McpToolEntry> {
  entries ??= new Map(TOOLS.map((t) => [t.id, entryOf(t)]));
  return entries;
}

/** What tools/list shows this caller: the tools some operation of which it may run. */
export function toolsFor(p: Principal): McpTool[] {
  return [...mcpTools().values()].filter((e) => mayRun(e.tool, p)).map((e) => e.listing);
}
