import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
import { call, pdfFile, postForm, problem } from "../support/http";
import { makePdf } from "../support/pdf.mjs";

describe("request limits", () => {
  it("a file over 50 MiB is 413 payload_too_large, before any engine runs", async () => {
    const small = await makePdf({ pages: 1 });
    const huge = new Uint8Array(LIMITS.fileBytes + 1);
    huge.set(small);
    const res = await postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(small, "a.pdf"), pdfFile(huge, "huge.pdf")] });
    expect(res.status).toBe(413);
    const body = await problem(res);
    expect(body.code).toBe("payload_too_large");
    expect(body.detail).toContain("huge.pdf");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  });

  it("a declared body over 100 MiB is refused from its Content-Length without reading it", async () => {
    const res = await call("/api/v1/pdf/split/split", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(LIMITS.requestBytes + 1) },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(16));
          controller.close();
        },
      }),
      // @ts-expect-error duplex is required by workerd for streaming bodies
      duplex: "half",
    });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("payload_too_large");
  });

  it("a document over the page limit is 422 too_many_pages", async () => {
    const big = await makePdf({ pages: LIMITS.pdfPages + 1 });
    const res = await postForm("/api/v1/pdf/split/split", { file: pdfFile(big, "big.pdf"), split_mode: "page_count", split_config: '{"pages_per_file":100}' });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("too_many_pages");
  });
});
