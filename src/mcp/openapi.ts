import { problemResponses } from "../http/route-openapi";

// /mcp in /openapi.json: one JSON-RPC endpoint, described for what a
// generic HTTP client sees; its tools are the tools operations above it
// (docs/reference/mcp.md). Other methods answer 405.

export const MCP_PATH = "/mcp";

const CREDENTIALS: Record<string, string[]>[] = [{}, { apiKey: [] }, { bearer: [] }];

export function mcpPathItem(): Record<string, unknown> {
  return {
    post: {
      operationId: "mcp",
      summary: "MCP endpoint (Streamable HTTP)",
      description:
        "Model Context Protocol over Streamable HTTP, stateless: POST one JSON-RPC message or batch, get the answer as application/json (GET and DELETE answer 405: no stream, no session). Every tool is an MCP tool; calls are billed and scoped as the HTTP routes. Beyond the original API contract.",
      tags: ["mcp"],
      security: CREDENTIALS,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { type: "object", description: "A JSON-RPC 2.0 request or notification (initialize, tools/list, tools/call...), or an array of them." },
          },
        },
      },
      responses: {
        "200": { description: "The JSON-RPC response(s)", content: { "application/json": { schema: { type: "object" } } } },
        "202": { description: "Accepted (notifications and responses only)" },
        ...problemResponses(["invalid_credentials", "payload_too_large"]),
      },
    },
  };
}
