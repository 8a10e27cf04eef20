import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeOutput } from "../../src/storage/outputs";
import { signKey } from "../../src/storage/signed-url";
import { BASE, call, problem } from "../support/http";

describe("GET /files/<key>", () => {
  it("serves a stored output with its content type and an attachment name, keyed by date and uuid", async () => {
    const stored = await storeOutput(env, BASE, { filename: 'report "final".pdf', contentType: "application/pdf", data: new Uint8Array([37, 80, 68, 70]) });
    expect(stored.key).toMatch(/^outputs\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\/report _final_\.pdf$/);
    expect(stored.url.startsWith(`${BASE}/files/outputs/`)).toBe(true);
    const res = await call(stored.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="report _final_.pdf"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it("uses PUBLIC_FILES_BASE_URL when it is set", async () => {
    const stored = await storeOutput({ ...env, PUBLIC_FILES_BASE_URL: "https://files.example.com" }, BASE, {
      filename: "a.pdf",
      contentType: "application/pdf",
      data: new Uint8Array([1]),
    });
    expect(stored.url).toBe(`https://files.example.com/${stored.key}`);
  });

  it("temporary outputs carry a signed URL valid 24 h; tampered links are 404, expired ones 410", async () => {
    const stored = await storeOutput(env, BASE, { filename: "c.pdf", contentType: "application/pdf", data: new Uint8Array([9]) }, { temporary: true });
    expect(stored.key.startsWith("tmp/")).toBe(true);
    const hours = (Date.parse(stored.expiresAt!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await call(stored.url)).status).toBe(200);

    const tampered = stored.url.replace(/sig=[^&]+/, "sig=AAAA");
    expect((await call(tampered)).status).toBe(404);
    const unsigned = stored.url.split("?")[0];
    expect((await call(unsigned)).status).toBe(404);

    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = `${BASE}/files/${stored.key}?expires=${past}&sig=${await signKey(env, stored.key, past)}`;
    const gone = await call(expired);
    expect(gone.status).toBe(410);
    expect((await problem(gone)).code).toBe("gone");
  });

  it("answers 404 problem+json for unknown keys and paths outside the output prefixes", async () => {
    expect((await call("/files/outputs/2020/01/01/nope/x.pdf")).status).toBe(404);
    expect((await call("/files/secrets/whatever")).status).toBe(404);
  });
});
