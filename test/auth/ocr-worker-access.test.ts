import { describe, expect, it } from "vitest";
import { CALLER_HEADER, withCallerSecret } from "../../src/engines/ocr/caller";
import ocrWorker from "../../src/ocr-worker";
import ocrConfig from "../../workers/ocr/wrangler.toml?raw";

// Issue #31, item 5: the OCR Worker has no public URL (only the main
// Worker's service binding reaches it), and with OCR_SHARED_SECRET set it
// refuses every request that does not carry that secret.

/** Top-level `key = value` pairs of a TOML file: the lines before its first [table]. */
function topLevel(toml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of toml.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line.startsWith("[")) break;
    const m = /^([A-Za-z0-9_]+)\s*=\s*(.+)$/.exec(line);
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

const runtime = (headers: Record<string, string> = {}) => new Request("https://ocr.internal/runtime", { headers });
const fetchOcr = (req: Request, env: { OCR_SHARED_SECRET?: string }) =>
  (ocrWorker.fetch as (r: Request, e: { OCR_SHARED_SECRET?: string }) => Promise<Response>)(req, env);

describe("workers/ocr/wrangler.toml", () => {
  it("publishes no URL: workers_dev and preview_urls are false, and there are no routes", () => {
    const keys = topLevel(ocrConfig);
    expect(keys.get("name")).toBe('"docapi-ocr"');
    expect(keys.get("workers_dev")).toBe("false");
    expect(keys.get("preview_urls")).toBe("false");
    expect(keys.has("route")).toBe(false);
    expect(keys.has("routes")).toBe(false);
    expect(ocrConfig).not.toMatch(/^\s*\[\[?routes\]?\]/m);
  });
});

describe("the OCR Worker's caller check", () => {
  it("with OCR_SHARED_SECRET set, refuses a request without it or with another value, before reading it", async () => {
    const env = { OCR_SHARED_SECRET: "ocr-shared-secret-0123456789" };
    const refused: Record<string, string>[] = [{}, { [CALLER_HEADER]: "wrong" }, { [CALLER_HEADER]: "" }];
    for (const headers of refused) {
      const res = await fetchOcr(runtime(headers), env);
      expect(res.status).toBe(403);
    }
    // A recognise request without the secret is refused too, not parsed (no 400).
    const recognise = new Request("https://ocr.internal/recognize", { method: "POST", body: new Uint8Array(4), headers: { "x-width": "2", "x-height": "2" } });
    expect((await fetchOcr(recognise, env)).status).toBe(403);
    // The main Worker's request carries it and is served.
    const ok = await fetchOcr(withCallerSecret(runtime(), env), env);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveProperty("wasm_total");
  });

  it("without a secret configured, the main Worker sends no header and the OCR Worker serves (no public URL is the lock)", async () => {
    const plain = withCallerSecret(runtime(), {});
    expect(plain.headers.has(CALLER_HEADER)).toBe(false);
    expect((await fetchOcr(plain, {})).status).toBe(200);
    expect((await fetchOcr(runtime(), { OCR_SHARED_SECRET: "  " })).status).toBe(200);
  });

  it("the main Worker keeps the request's method, headers and body when it adds the secret", async () => {
    const req = new Request("https://ocr.internal/recognize", {
      method: "POST",
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { "x-width": "2", "x-height": "2" },
    });
    const signed = withCallerSecret(req, { OCR_SHARED_SECRET: "s3cret-value" });
    expect(signed.method).toBe("POST");
    expect(signed.headers.get(CALLER_HEADER)).toBe("s3cret-value");
    expect(signed.headers.get("x-width")).toBe("2");
    expect(new Uint8Array(await signed.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
  });
});
