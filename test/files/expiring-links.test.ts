import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { toBase64 } from "../../src/secrets/encoding";
import { storeOutput } from "../../src/storage/outputs";
import { BASE, call, file, form, problem } from "../support/http";
import { plainPdf } from "../support/pdf.mjs";

// Issue #31, item 4: expiring outputs (Compress PDF's tmp/ links) are served
// by the Worker alone, whatever PUBLIC_FILES_BASE_URL says, and their objects
// are not stored under the key their link names: a bucket reachable another
// way (an R2 custom domain that exposes the whole bucket) cannot serve them
// without the signature or after the expiry.

const PUBLIC_BASE = "https://files.example.com";
/** The environment of a deployment with an R2 custom domain for outputs. */
const withPublicDomain = { ...env, PUBLIC_FILES_BASE_URL: PUBLIC_BASE } as typeof env;
const app = buildApp();

/** A request to the Worker under that environment, as its fetch would run it. */
async function fetchWithPublicDomain(path: string, init: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", `192.0.2.${Math.floor(Math.random() * 250) + 1}`);
  const res = await app.fetch(new Request(BASE + path, { ...init, headers }), withPublicDomain, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The key a /files/ URL names. */
const linkKey = (url: string) => decodeURIComponent(new URL(url).pathname.slice("/files/".length));

describe("expiring outputs with PUBLIC_FILES_BASE_URL set", () => {
  it("storeOutput: the link is the Worker's, signed; the object's R2 key is not the link's", async () => {
    const stored = await storeOutput(
      withPublicDomain,
      BASE,
      { filename: "c.pdf", contentType: "application/pdf", data: new Uint8Array([7]) },
      { temporary: true },
    );
    expect(stored.url.startsWith(`${BASE}/files/tmp/`)).toBe(true);
    expect(stored.url).not.toContain(PUBLIC_BASE);
    expect(new URL(stored.url).searchParams.get("expires")).toMatch(/^\d+$/);
    expect(new URL(stored.url).searchParams.get("sig")).toMatch(/^[\w-]{43}$/);
    expect(linkKey(stored.url)).toBe(stored.key);
    // Same date prefix and name, another middle segment.
    expect(stored.key).toMatch(/^tmp\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\/c\.pdf$/);
    expect(stored.objectKey).toMatch(/^tmp\/\d{4}\/\d{2}\/\d{2}\/[\w-]{43}\/c\.pdf$/);
    expect(stored.objectKey.slice(0, 15)).toBe(stored.key.slice(0, 15));
    expect(stored.objectKey).not.toContain(stored.key.split("/")[4]);
    expect(await env.FILES.head(stored.key)).toBeNull();
    expect(await env.FILES.head(stored.objectKey)).not.toBeNull();
    // Permanent outputs keep the public base, and their key is their R2 key.
    const kept = await storeOutput(withPublicDomain, BASE, { filename: "k.pdf", contentType: "application/pdf", data: new Uint8Array([8]) });
    expect(kept.url).toBe(`${PUBLIC_BASE}/${kept.key}`);
    expect(kept.objectKey).toBe(kept.key);
  });

  it("Compress PDF through HTTP: download_url is the Worker's signed tmp/ link, it downloads, and the link's path holds nothing in R2", async () => {
    const pdf = await plainPdf(2);
    const res = await fetchWithPublicDomain("/api/v1/compression/single", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ file_data: toBase64(pdf), filename: "report.pdf" }),
    });
    const body = (await res.json()) as { download_url: string; expires_at: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const url = new URL(body.download_url);
    expect(url.origin).toBe(BASE);
    expect(url.pathname).toMatch(/^\/files\/tmp\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\/report_compressed\.pdf$/);
    expect([...url.searchParams.keys()].sort()).toEqual(["expires", "sig"]);
    expect(Number(url.searchParams.get("expires")) * 1000).toBe(Date.parse(body.expires_at));

    // What a public custom domain would serve for that path: nothing.
    expect(await env.FILES.head(linkKey(body.download_url))).toBeNull();
    // The Worker serves it with the signature, and not without.
    const download = await fetchWithPublicDomain(url.pathname + url.search, {});
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await download.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect((await problem(await fetchWithPublicDomain(url.pathname, {}))).code).toBe("not_found");

    // The setting was in force for these requests: a permanent result uses the public domain.
    const merged = await fetchWithPublicDomain("/api/v1/pdf/merge/merge", { method: "POST", body: form({ files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }) });
    expect(merged.status).toBe(200);
    expect(((await merged.json()) as { output_url: string }).output_url.startsWith(`${PUBLIC_BASE}/outputs/`)).toBe(true);
  });

  it("a link to another object's key, or with a key edited after signing, is 404", async () => {
    const stored = await storeOutput(env, BASE, { filename: "d.pdf", contentType: "application/pdf", data: new Uint8Array([9]) }, { temporary: true });
    expect((await call(stored.url)).status).toBe(200);
    // The object's own R2 key is not a link: unsigned, and it names no object through the mapping.
    expect((await call(`${BASE}/files/${stored.objectKey}`)).status).toBe(404);
    const url = new URL(stored.url);
    const renamed = `${BASE}${url.pathname.replace(/d\.pdf$/, "e.pdf")}${url.search}`;
    expect((await call(renamed)).status).toBe(404);
  });
});
