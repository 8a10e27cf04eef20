// The MCP endpoint through the real bundled `wrangler dev`, driven by the
// MCP SDK's own client over Streamable HTTP as an agent's client would:
// list the tools, merge two PDFs sent as Base64 and check the output with
// qpdf, see the same credits as the HTTP call, and run a chain as one tool.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { requireTool, startServerWithKey } from "./server.mjs";

let srv;
const tmp = mkdtempSync(join(tmpdir(), "docapi-mcp-"));
before(async () => {
  srv = await startServerWithKey({ credits: 1_000 });
});
after(async () => {
  await srv?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function pdf(pages, label) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([300, 300]).drawText(`${label} ${i + 1}`, { x: 40, y: 150, size: 18, font });
  return { base64: Buffer.from(await doc.save()).toString("base64"), filename: `${label}.pdf` };
}

async function connect(headers) {
  const client = new Client({ name: "docapi-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.base}/mcp`), { requestInit: { headers } }));
  return client;
}

const balance = async () => (await (await fetch(`${srv.base}/api/v1/account`, { headers: { Authorization: `Bearer ${srv.token}` } })).json()).balance;

test("an MCP client lists the tools and merges two PDFs; qpdf counts the pages, the key is charged as over HTTP", async (t) => {
  if (!requireTool(t, "qpdf")) return;
  const client = await connect({ Authorization: `Bearer ${srv.apiKey}` });
  const { tools } = await client.listTools();
  const openapi = await (await fetch(`${srv.base}/openapi.json`)).json();
  const toolIds = Object.values(openapi.paths).flatMap((ops) =>
    Object.values(ops)
      .filter((o) => o.tags?.includes("tools") && o.requestBody)
      .map((o) => o.operationId),
  );
  assert.deepEqual(tools.map((x) => x.name).sort(), toolIds.sort());

  const before = await balance();
  const result = await client.callTool({ name: "merge-pdf", arguments: { files: [await pdf(2, "Left"), await pdf(1, "Right")] } });
  assert.ok(!result.isError, JSON.stringify(result));
  assert.equal(result._meta.credits_charged, 10);
  assert.equal(await balance(), before - 10);
  const out = join(tmp, "merged.pdf");
  writeFileSync(out, Buffer.from(await (await fetch(result.structuredContent.output_url)).arrayBuffer()));
  const pages = spawnSync("qpdf", ["--show-npages", out], { encoding: "utf8" });
  assert.equal(pages.stdout.trim(), "3", pages.stderr);

  const denied = await client.callTool({ name: "html-to-pdf", arguments: {} });
  assert.equal(denied.isError, true);
  assert.equal(denied.structuredContent.code, "validation_failed");
  assert.equal(await balance(), before - 10);
  await client.close();
});

test("a chain runs as one MCP tool, charged the sum of its steps", async (t) => {
  if (!requireTool(t, "pdftotext")) return;
  const client = await connect({ "X-API-Key": srv.apiKey });
  const before = await balance();
  const result = await client.callTool({
    name: "chain",
    arguments: {
      steps: [
        { tool: "merge-pdf", fields: { files: [await pdf(1, "One"), await pdf(1, "Two")] } },
        { tool: "watermark-text", fields: { file: "$prev", text: "AGENT COPY" } },
      ],
    },
  });
  assert.ok(!result.isError, JSON.stringify(result));
  assert.equal(result._meta.credits_charged, 20);
  assert.equal(await balance(), before - 20);
  const out = join(tmp, "chain.pdf");
  writeFileSync(out, Buffer.from(await (await fetch(result.structuredContent.file_url)).arrayBuffer()));
  const text = spawnSync("pdftotext", [out, "-"], { encoding: "utf8" }).stdout;
  assert.match(text, /One 1/);
  assert.match(text, /Two 1/);
  assert.equal(text.match(/AGENT COPY/g)?.length, 2);
  await client.close();
});
