import { describe, expect, it } from "vitest";
import { contentDisposition, safeFilename } from "../../src/storage/outputs";
import { toBase64 } from "../../src/secrets/encoding";
import { accountWithKey } from "../support/accounts";
import { call, file, postForm, postJson, withKey } from "../support/http";
import { makeImage, plainPdf } from "../support/pdf.mjs";

// Issue #14: an upload named "report..v2.pdf" was processed and charged, and
// its output URL answered 404. Every tool that stores an output is called
// with names users really send, and every result is downloaded.

const ODD_NAMES = [
  "report..v2.pdf",
  "..hidden.pdf",
  'quote"d and \\back.pdf',
  "with  spaces .pdf",
  "Ünïcödé 文件 😀.pdf",
  "ctrl\u0001\u007f\u0085.pdf",
  "%2e%2e%2fescape.pdf",
  `${"long-name-".repeat(30)}.pdf`,
  ".....pdf",
];

type Caller = (name: string, key: string) => Promise<Response>;

const pdfPart = async (name: string) => file(await plainPdf(2), name);
const pngPart = async (name: string) => file(await makeImage("png", 40, 30, [200, 40, 40]), name.replace(/\.pdf$/, ".png"), "image/png");

/** Every tool that stores an output, called as simply as it allows; the URL field differs by tool (docs/reference/files.md). */
const TOOLS: Record<string, { call: Caller; url: (body: Record<string, unknown>) => string }> = {
  merge: {
    call: async (n, k) => postForm("/api/v1/pdf/merge/merge", { files: [await pdfPart(n), await pdfPart("b.pdf")] }, withKey(k)),
    url: (b) => b.output_url as string,
  },
  split: {
    call: async (n, k) =>
      postForm("/api/v1/pdf/split/split", { file: await pdfPart(n), split_mode: "page_count", split_config: '{"pages_per_file":1}' }, withKey(k)),
    url: (b) => b.output_url as string,
  },
  compress: {
    call: async (n, k) => postJson("/api/v1/compression/single", { file_data: toBase64(await plainPdf(2)), filename: n }, withKey(k)),
    url: (b) => b.download_url as string,
  },
  unlock: {
    call: async (n, k) => postForm("/api/v1/security/security/password/remove", { file: await pdfPart(n), password: "x" }, withKey(k)),
    url: (b) => b.file_url as string,
  },
  repair: { call: async (n, k) => postForm("/api/v1/pdf/repair", { file: await pdfPart(n) }, withKey(k)), url: (b) => b.url as string },
  "watermark text": {
    call: async (n, k) => postForm("/api/v1/watermark/text", { file: await pdfPart(n), text: "DRAFT" }, withKey(k)),
    url: (b) => b.url as string,
  },
  "watermark image": {
    call: async (n, k) => postForm("/api/v1/watermark/image", { file: await pdfPart(n), watermark: await pngPart("mark.png") }, withKey(k)),
    url: (b) => b.url as string,
  },
  "page numbers": { call: async (n, k) => postForm("/api/v1/pdf/page-numbers", { file: await pdfPart(n) }, withKey(k)), url: (b) => b.url as string },
  redact: { call: async (n, k) => postForm("/api/v1/redact", { file: await pdfPart(n), entity_types: "EMAIL" }, withKey(k)), url: (b) => b.url as string },
  "image compress": { call: async (n, k) => postForm("/api/v1/image/compress", { file: await pngPart(n) }, withKey(k)), url: (b) => b.url as string },
  "image resize": { call: async (n, k) => postForm("/api/v1/image/resize", { file: await pngPart(n), width: "20" }, withKey(k)), url: (b) => b.url as string },
  "image convert": {
    call: async (n, k) => postForm("/api/v1/image/convert", { file: await pngPart(n), target_format: "jpg" }, withKey(k)),
    url: (b) => b.url as string,
  },
};

describe("odd upload names: every stored output can be downloaded", () => {
  for (const [tool, { call: run, url }] of Object.entries(TOOLS)) {
    it(`${tool}: each name gives a 200 call whose output downloads with a safe Content-Disposition`, async () => {
      const { key } = await accountWithKey({ credits: 10_000 });
      for (const name of ODD_NAMES) {
        const res = await run(name, key);
        expect(res.status, `${tool} ${JSON.stringify(name)}`).toBe(200);
        const out = await call(url((await res.json()) as Record<string, unknown>));
        expect(out.status, `${tool} ${JSON.stringify(name)}: download`).toBe(200);
        expect((await out.arrayBuffer()).byteLength).toBeGreaterThan(0);
        const disposition = out.headers.get("Content-Disposition") ?? "";
        expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"/);
        expect(disposition).not.toMatch(/filename="[^"]*[/\\][^"]*"/);
      }
    });
  }
});

describe("names and the files route, by segment", () => {
  it("keeps dots inside a name, drops leading dots, unsafe characters and lone surrogates, and cuts long names by character keeping the extension", () => {
    expect(safeFilename("report..v2.pdf")).toBe("report..v2.pdf");
    expect(safeFilename("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(safeFilename("....")).toBe("file");
    expect(safeFilename("a\ud800b.pdf")).toBe("a_b.pdf");
    const long = safeFilename(`${"文".repeat(300)}.pdf`);
    expect([...long]).toHaveLength(180);
    expect(long.endsWith("文.pdf")).toBe(true);
    // Cut between the halves of an emoji, a name would hold a lone surrogate.
    expect([...safeFilename(`${"😀".repeat(200)}.pdf`)].every((c) => c.length === 2 || c === "." || /[a-z]/.test(c))).toBe(true);
  });

  it("writes an ASCII filename and the exact UTF-8 name in filename* (RFC 6266)", () => {
    expect(contentDisposition("plain.pdf")).toBe('attachment; filename="plain.pdf"');
    expect(contentDisposition("Ünïcödé 文件.pdf")).toBe(
      "attachment; filename=\"Unicode __.pdf\"; filename*=UTF-8''%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20%E6%96%87%E4%BB%B6.pdf",
    );
    expect(contentDisposition("50% off (final)'s.pdf")).toBe(
      "attachment; filename=\"50_ off (final)'s.pdf\"; filename*=UTF-8''50%25%20off%20%28final%29%27s.pdf",
    );
  });

  it("refuses a path whose segment is empty, '.', '..', an encoded slash or control character, or bad percent-encoding", async () => {
    for (const path of [
      "/files/outputs/2026/01/01/x/../../../secret",
      "/files/outputs/2026/01/01/x/%2e%2e/y.pdf",
      "/files/outputs/2026/01/01/x/a%2fb.pdf",
      "/files/outputs/2026/01/01/x/a%00.pdf",
      "/files/outputs/2026//01/x/a.pdf",
      "/files/outputs/2026/01/01/x/%E0%A4%A.pdf",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    }
  });
});
