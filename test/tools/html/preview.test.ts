import { describe, expect, it } from "vitest";
import { balanceOf } from "../../support/accounts";
import { describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { call, postForm, problem, withKey } from "../../support/http";
import { caller, expectRefused, PREVIEW } from "./helpers";
import type { Answer } from "../../support/answers";

type PreviewBody = Answer<"html-preview">;

async function preview(fields: Parameters<typeof postForm>[1]) {
  const acc = await caller();
  const res = await postForm(PREVIEW, fields, withKey(acc.key));
  if (res.status !== 200) throw new Error(`preview ${res.status}: ${await res.text()}`);
  return { res, body: (await res.json()) as PreviewBody, acc };
}

function pngOf(dataUri: string): { width: number; height: number; bytes: Uint8Array } {
  expect(dataUri.startsWith("data:image/png;base64,")).toBe(true);
  const bin = atob(dataUri.slice("data:image/png;base64,".length));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
  return { width: view.getUint32(16), height: view.getUint32(20), bytes };
}

describeWithBrowser("HTML preview", () => {
  itWithBrowser("answers a PNG data URI of the viewport, charging nothing", async () => {
    const { res, body, acc } = await preview({ html: "<h1 style='color:red'>Preview</h1>" });
    expect(body).toMatchObject({ success: true, source: "html", width: 1280, height: 800 });
    const png = pngOf(body.image);
    expect([png.width, png.height]).toEqual([1280, 800]);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acc.token)).toBe(1000);
  });

  itWithBrowser("takes viewport_width and viewport_height", async () => {
    const { body } = await preview({ html: "<p>small</p>", viewport_width: "400", viewport_height: "300" });
    expect(pngOf(body.image)).toMatchObject({ width: 400, height: 300 });
  });

  itWithBrowser("full_page captures the whole scrollable page", async () => {
    const html = "<body style='margin:0'><div style='height:2000px'>tall</div></body>";
    const { body } = await preview({ html, viewport_width: "500", viewport_height: "400", full_page: "true" });
    expect(pngOf(body.image)).toMatchObject({ width: 500, height: 2000 });
  });

  itWithBrowser("renders url sources from allowed targets", async () => {
    const { body } = await preview({ url: `${pageServer()}/page` });
    expect(body.source).toBe("url");
  });
});

describe("HTML preview: refusals", () => {
  it("answers 401 to anonymous callers", async () => {
    const res = await postForm(PREVIEW, { html: "<p>x</p>" });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("unauthorized");
  });

  it("answers 422 without a source", async () => {
    await expectRefused(PREVIEW, {}, 422, "validation_failed");
  });

  it.each(["http://127.1/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/"])("refuses %s like HTML to PDF", async (url) => {
    await expectRefused(PREVIEW, { url }, 422, "url_refused");
  });

  it("is in the OpenAPI document with its viewport and full_page fields, and HTML to PDF lists its additional fields", async () => {
    type Op = { requestBody: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } };
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, { post: Op }> };
    const fields = (path: string) => doc.paths[path].post.requestBody.content["multipart/form-data"].schema.properties;
    expect(Object.keys(fields(PREVIEW))).toEqual(expect.arrayContaining(["url", "html", "file", "viewport_width", "viewport_height", "full_page"]));
    const toPdf = fields("/api/v1/html/to-pdf");
    for (const name of [
      "files",
      "assets",
      "wait_delay",
      "wait_for_selector",
      "wait_for_expression",
      "emulated_media",
      "fail_on_http_status",
      "scale",
      "page_ranges",
      "prefer_css_page_size",
      "outline",
      "tagged",
    ]) {
      expect(toPdf[name]?.description, name).toMatch(/^Beyond the original API/);
    }
  });
});
