import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/tools/registry";
import { accountWithKey, createAccount, createKey } from "../support/accounts";
import { call, withKey, withToken } from "../support/http";
import { mcpClient } from "../support/mcp";

// tools/list is the registry seen through MCP: one tool per declaration,
// input schemas equal to /openapi.json's request bodies but for file parts,
// filtered by what the caller may run.

type Schema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

async function openapiBodies(): Promise<Map<string, Schema>> {
  const doc = (await (await call("/openapi.json")).json()) as {
    paths: Record<string, Record<string, { operationId: string; tags?: string[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  };
  const out = new Map<string, Schema>();
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      if (!op.tags?.includes("tools") || !op.requestBody) continue;
      out.set(op.operationId, Object.values(op.requestBody.content)[0].schema);
    }
  }
  return out;
}

const isFileSchema = (s: Record<string, unknown>) => s.format === "binary" || (s.items as Record<string, unknown> | undefined)?.format === "binary";

describe("MCP tools/list", () => {
  it("lists every declared tool once, with /openapi.json's request schema (file parts as file references)", async () => {
    const acct = await createAccount({ plan: "enterprise" });
    const client = await mcpClient(withToken(acct.token));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.id).sort());
    const bodies = await openapiBodies();
    expect([...bodies.keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const http = bodies.get(tool.name) as Schema;
      const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(props).sort(), tool.name).toEqual(Object.keys(http.properties ?? {}).sort());
      for (const [name, schema] of Object.entries(http.properties ?? {})) {
        if (!isFileSchema(schema)) expect(props[name], `${tool.name}.${name}`).toEqual(schema);
        else expect(JSON.stringify(props[name]), `${tool.name}.${name}`).toContain('"base64"');
      }
      expect(tool.inputSchema.required ?? []).toEqual(http.required ?? []);
      const declared = TOOLS.find((t) => t.id === tool.name);
      expect(tool.description).toContain(declared?.operations[0].key);
    }
    await client.close();
  });

  it("a key's scopes filter what it lists", async () => {
    const acct = await createAccount();
    const key = await createKey(acct.token, { scopes: ["pdf.merge", "pdf.split"] });
    const client = await mcpClient(withKey(key.api_key));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["merge-pdf", "split-pdf"]);
    await client.close();
  });

  it("an API key works as a bearer token too, as MCP clients send it", async () => {
    const acct = await createAccount();
    const key = await createKey(acct.token, { scopes: ["pdf.merge"] });
    const client = await mcpClient({ Authorization: `Bearer ${key.api_key}` });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["merge-pdf"]);
    await client.close();
  });

  it("anonymous callers see only the free-try tools", async () => {
    const client = await mcpClient();
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    const freeTry = TOOLS.filter((t) => t.operations.some((o) => o.access === "free-try")).map((t) => t.id);
    expect(names).toEqual(freeTry.sort());
    expect(names).not.toContain("html-to-pdf");
    await client.close();
  });

  it("a wrong credential is a 401 before any JSON-RPC", async () => {
    await expect(mcpClient(withKey("dt_live_not-a-real-key"))).rejects.toThrow(/401/);
    const { key } = await accountWithKey();
    const res = await call("/mcp", { method: "GET", headers: withKey(key) });
    expect(res.status).toBe(405);
  });
});
