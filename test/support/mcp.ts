import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BASE, call, freshIp } from "./http";

// The MCP SDK's own client, speaking Streamable HTTP to the Worker's /mcp
// through the Worker's fetch handler: what an agent's MCP client does, with
// no handler called directly.

/** A connected client sending `headers` (credentials) on every request, from one client address. */
export async function mcpClient(headers: Record<string, string> = {}): Promise<Client> {
  const ip = freshIp();
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    fetch: (url, init) => call(url.toString(), { ...init, ip }),
    requestInit: { headers },
  });
  const client = new Client({ name: "docapi-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export const toBase64 = (bytes: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};
