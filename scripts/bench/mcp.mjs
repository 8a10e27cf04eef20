// The MCP endpoint's cost over the HTTP route it calls: Merge PDF of two
// small PDFs over HTTP (multipart) and as an MCP tools/call (the same files
// as Base64) on one connected SDK client, alternated, 21 calls each; the
// overhead is the difference of the medians. Also tools/list. The goal is
// under 5 ms on merge. `npm run bench -- mcp` runs this section alone.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const title = "MCP endpoint";

const RUNS = 21;

async function pdf(pages, label) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`${label} page ${i + 1}`, { x: 60, y: 700, size: 20, font });
  return doc.save();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export async function run(ctx) {
  const files = [await pdf(3, "Left"), await pdf(2, "Right")];
  const client = new Client({ name: "docapi-bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${ctx.base}/mcp`), { requestInit: { headers: { "X-API-Key": ctx.apiKey } } }));
  const args = { files: files.map((f, i) => ({ base64: Buffer.from(f).toString("base64"), filename: `${i}.pdf` })) };
  const http = [];
  const mcp = [];
  const list = [];
  for (let i = 0; i < RUNS; i++) {
    const form = new FormData();
    files.forEach((f, j) => form.append("files", new Blob([f], { type: "application/pdf" }), `${j}.pdf`));
    const res = await ctx.post("/api/v1/pdf/merge/merge", form);
    if (res.status !== 200) throw new Error(`merge over HTTP: ${res.status} ${JSON.stringify(res.json)}`);
    http.push(res.ms);
    let t = performance.now();
    const result = await client.callTool({ name: "merge-pdf", arguments: args });
    if (result.isError) throw new Error(`merge over MCP: ${JSON.stringify(result.structuredContent)}`);
    mcp.push(performance.now() - t);
    t = performance.now();
    await client.listTools();
    list.push(performance.now() - t);
  }
  await client.close();
  const [h, m] = [median(http), median(mcp)];
  ctx.row({ tool: "merge over HTTP", case: `2 PDFs, 5 pages, ${RUNS} calls`, ms: Math.round(h) });
  ctx.row({
    tool: "merge over MCP",
    case: `same files as Base64, ${RUNS} calls`,
    ms: Math.round(m),
    note: `overhead ${(m - h).toFixed(1)} ms median (goal < 5 ms)`,
  });
  ctx.row({ tool: "MCP tools/list", case: `${RUNS} calls`, ms: Math.round(median(list)) });
}
