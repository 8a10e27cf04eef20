import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf, createAccount, createKey } from "../support/accounts";
import { describeWithBrowser, itWithBrowser, pageServer } from "../support/browser";
import { download, pdfFile, postForm, withKey, withToken } from "../support/http";
import { mcpClient, toBase64 } from "../support/mcp";
import { plainPdf } from "../support/pdf.mjs";
import { pageCount, readPdf } from "../support/pdf-read";
import { pageTexts } from "../support/pdf-text";

// tools/call runs the tool's HTTP route: same output, same credits, same
// refusals, each refusal a tool error carrying the problem's code.

type Result = Awaited<ReturnType<Awaited<ReturnType<typeof mcpClient>>["callTool"]>>;
type Meta = { request_id: string; credits_charged: number; idempotent_replayed?: boolean };
const meta = (r: Result) => r._meta as Meta;
const structured = (r: Result) => r.structuredContent as Record<string, unknown>;

const pdfRef = async (pages: number, label: string) => ({ base64: toBase64(await plainPdf(pages, label)), filename: `${label}.pdf` });

describe("MCP tools/call", () => {
  it("merges two base64 PDFs: an output URL with both files' pages, charged as the HTTP call", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const client = await mcpClient(withKey(acct.key));
    const result = await client.callTool({ name: "merge-pdf", arguments: { files: [await pdfRef(2, "A"), await pdfRef(3, "B")] } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const body = structured(result);
    expect(body.pages).toBe(5);
    const merged = await download(body.output_url as string);
    const facts = await readPdf(merged);
    expect(facts.pages).toBe(5);
    expect(facts.outline.map((o) => o.title)).toEqual(["A", "B"]);
    expect(meta(result).credits_charged).toBe(10);
    expect(meta(result).request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((result.content as { text: string }[])[0].text).toContain(body.output_url as string);
    // The HTTP route charges the same.
    const http = await postForm(
      "/api/v1/pdf/merge/merge",
      { files: [pdfFile(await plainPdf(1), "a.pdf"), pdfFile(await plainPdf(1), "b.pdf")] },
      withKey(acct.key),
    );
    expect(http.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(80);
    // The job the MCP call made is the account's, as for any call.
    const job = await (await fetchJob(acct.token, meta(result).request_id)).json();
    expect(job).toMatchObject({ tool: "merge-pdf", status: "completed", output_url: body.output_url });
    await client.close();
  });

  it("an output URL of an earlier call is an input; another account's is not", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const client = await mcpClient(withKey(acct.key));
    const first = structured(await client.callTool({ name: "merge-pdf", arguments: { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] } }));
    const again = await client.callTool({ name: "merge-pdf", arguments: { files: [{ url: first.output_url }, await pdfRef(2, "C")] } });
    expect(again.isError, JSON.stringify(again)).toBeFalsy();
    expect(await pageCount(await download(structured(again).output_url as string))).toBe(4);

    const other = await accountWithKey({ credits: 100 });
    const stranger = await mcpClient(withKey(other.key));
    const refused = await stranger.callTool({ name: "merge-pdf", arguments: { files: [{ url: first.output_url }, await pdfRef(1, "D")] } });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toMatchObject({ code: "file_unavailable", status: 422 });
    expect(meta(refused).credits_charged).toBe(0);
    expect(await balanceOf(other.token)).toBe(100);
    await client.close();
    await stranger.close();
  });

  it("a scope-denied call and a budget-exhausted call are tool errors with their codes, nothing charged", async () => {
    const acct = await createAccount({ credits: 100 });
    const splitOnly = await createKey(acct.token, { scopes: ["pdf.split"] });
    const denied = await (await mcpClient(withKey(splitOnly.api_key))).callTool({
      name: "merge-pdf",
      arguments: { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] },
    });
    expect(denied.isError).toBe(true);
    expect(structured(denied)).toMatchObject({ code: "scope_denied", status: 403 });
    expect(typeof structured(denied).request_id).toBe("string");

    const capped = await createKey(acct.token, { credit_limit: 5 });
    const broke = await (await mcpClient(withKey(capped.api_key))).callTool({
      name: "merge-pdf",
      arguments: { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] },
    });
    expect(broke.isError).toBe(true);
    expect(structured(broke).code).toBe("budget_exceeded");
    expect(meta(broke).credits_charged).toBe(0);
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("bad arguments are the tool's own 4xx: invalid Base64, a non-PDF, too few files", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const client = await mcpClient(withKey(acct.key));
    const codeOf = async (args: Record<string, unknown>) => structured(await client.callTool({ name: "merge-pdf", arguments: args })).code;
    expect(await codeOf({ files: [{ base64: "not base64!!", filename: "a.pdf" }, await pdfRef(1, "B")] })).toBe("invalid_base64");
    expect(await codeOf({ files: [await pdfRef(1, "A")] })).toBe("too_few_files");
    expect(await codeOf({ files: [{ base64: toBase64(new TextEncoder().encode("hello")), filename: "a.txt" }, await pdfRef(1, "B")] })).toBe("bad_request");
    expect(await codeOf({ files: [{ url: "http://169.254.169.254/latest/meta-data" }, await pdfRef(1, "B")] })).toBe("file_unavailable");
    const unknown = await client.callTool({ name: "no-such-tool", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(await balanceOf(acct.token)).toBe(100);
    await client.close();
  });

  it("anonymous callers run free-try tools at 0 credits and are refused login tools", async () => {
    const client = await mcpClient();
    const merged = await client.callTool({ name: "merge-pdf", arguments: { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] } });
    expect(merged.isError, JSON.stringify(merged)).toBeFalsy();
    expect(meta(merged).credits_charged).toBe(0);
    const html = await client.callTool({ name: "html-to-pdf", arguments: { html_content: "<p>x</p>" } });
    expect(structured(html)).toMatchObject({ code: "unauthorized", status: 401 });
    await client.close();
  });

  it("an Idempotency-Key in _meta replays the first answer without charging again", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const client = await mcpClient(withKey(acct.key));
    const args = { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] };
    const key = `mcp-${crypto.randomUUID()}`;
    const first = await client.callTool({ name: "merge-pdf", arguments: args, _meta: { "idempotency-key": key } });
    const second = await client.callTool({ name: "merge-pdf", arguments: args, _meta: { "idempotency-key": key } });
    expect(structured(second).output_url).toBe(structured(first).output_url);
    expect(meta(second).idempotent_replayed).toBe(true);
    expect(await balanceOf(acct.token)).toBe(90);
    // Other arguments under the same key are refused, as over HTTP.
    const reused = await client.callTool({
      name: "merge-pdf",
      arguments: { files: [await pdfRef(2, "A"), await pdfRef(1, "B")] },
      _meta: { "idempotency-key": key },
    });
    expect(structured(reused).code).toBe("idempotency_key_reused");
    await client.close();
  });

  it("a chain is one MCP tool: several steps, one charge", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const client = await mcpClient(withKey(acct.key));
    const result = await client.callTool({
      name: "chain",
      arguments: {
        steps: [
          { tool: "merge-pdf", fields: { files: [await pdfRef(1, "A"), await pdfRef(2, "B")] } },
          { tool: "watermark-text", fields: { file: "$prev", text: "AGENT" } },
        ],
      },
    });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(meta(result).credits_charged).toBe(20);
    expect(await pageCount(await download(structured(result).file_url as string))).toBe(3);
    expect(await balanceOf(acct.token)).toBe(80);
    await client.close();
  });

  it("a dashboard JWT runs tools as its user", async () => {
    const acct = await createAccount({ credits: 50 });
    const client = await mcpClient(withToken(acct.token));
    const result = await client.callTool({ name: "merge-pdf", arguments: { files: [await pdfRef(1, "A"), await pdfRef(1, "B")] } });
    expect(meta(result).credits_charged).toBe(10);
    expect(await balanceOf(acct.token)).toBe(40);
    await client.close();
  });
});

async function fetchJob(token: string, id: string) {
  const { call } = await import("../support/http");
  return call(`/api/v1/jobs/${id}`, { headers: withToken(token) });
}

describeWithBrowser("MCP tools/call: files by URL", () => {
  itWithBrowser("fetches an https file through its redirects, as the HTML renderer would, and refuses what its rules refuse", async () => {
    const acct = await accountWithKey({ credits: 200 });
    const client = await mcpClient(withKey(acct.key));
    const page = { url: `${pageServer()}/redirect?to=/page`, filename: "page.html" };
    const result = await client.callTool({ name: "html-to-pdf", arguments: { file: page } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(meta(result).credits_charged).toBe(40);
    const pdf = await download(structured(result).url as string);
    expect((await pageTexts(pdf)).join(" ")).toContain("Hello from the page server");

    const missing = await client.callTool({ name: "html-to-pdf", arguments: { file: { url: `${pageServer()}/status/404`, filename: "gone.html" } } });
    expect(structured(missing)).toMatchObject({ code: "file_unavailable", status: 422 });
    expect(structured(missing).detail).toMatch(/HTTP 404/);
    const loopback = await client.callTool({ name: "html-to-pdf", arguments: { file: { url: "http://127.0.0.1:9/x.html" } } });
    expect(structured(loopback).code).toBe("file_unavailable");
    expect(await balanceOf(acct.token)).toBe(160);
    await client.close();
  });
});
