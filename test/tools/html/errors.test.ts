import { describe, expect, it } from "vitest";
import { zipSync } from "fflate";
import { deadOrigin, describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { file, postForm, problem } from "../../support/http";
import { caller, expectRefused, keyHeaders, TO_PDF } from "./helpers";

// Refusals decided by validation run before any browser and charge nothing.
describe("HTML to PDF: validation", () => {
  it("answers 401 to an anonymous caller (login class)", async () => {
    const res = await postForm(TO_PDF, { html: "<p>x</p>" });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("unauthorized");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  });

  it("answers 422 when no source is given", async () => {
    const { body } = await expectRefused(TO_PDF, { page_format: "A4" }, 422, "validation_failed");
    expect(body.errors?.map((e) => e.field)).toContain("file");
  });

  it("answers 422 to an unknown page_format, naming the formats", async () => {
    const { body } = await expectRefused(TO_PDF, { html: "<p>x</p>", page_format: "B5" }, 422, "validation_failed");
    expect(body.errors?.[0]).toMatchObject({ field: "page_format" });
    expect(body.errors?.[0].message).toContain("Ledger");
  });

  it.each([
    ["margin", "huge"],
    ["page_ranges", "1-2,x"],
    ["scale", "5"],
    ["emulated_media", "tv"],
    ["screen_width", "50"],
    ["wait_delay", "999999"],
  ])("answers 422 to a bad %s", async (field, value) => {
    const { body } = await expectRefused(TO_PDF, { html: "<p>x</p>", [field]: value }, 422, "validation_failed");
    expect(body.errors?.[0].field).toBe(field);
  });

  it("answers 422 to a file that is not .html", async () => {
    await expectRefused(TO_PDF, { file: file(new TextEncoder().encode("x"), "notes.txt", "text/plain") }, 422, "validation_failed");
  });
});

describeWithBrowser("HTML to PDF: page failures are 422 and refunded", () => {
  itWithBrowser("a page that never finishes loading times out with 422 page_load_timeout", async () => {
    const { body } = await expectRefused(TO_PDF, { url: `${pageServer()}/hang` }, 422, "page_load_timeout");
    expect(body.detail).toContain("nothing was charged");
  });

  itWithBrowser("a page whose server refuses the connection is 422 page_load_failed", async () => {
    const { body } = await expectRefused(TO_PDF, { url: `${deadOrigin()}/page` }, 422, "page_load_failed");
    expect(body.detail).toContain("ERR_CONNECTION_REFUSED");
  });

  itWithBrowser("a sub-resource that never answers times the page out too", async () => {
    await expectRefused(TO_PDF, { url: `${pageServer()}/embed?src=/hang` }, 422, "page_load_timeout");
  });

  itWithBrowser("wait_for_selector that never matches times out with 422", async () => {
    await expectRefused(TO_PDF, { html: "<p>x</p>", wait_for_selector: "#never" }, 422, "page_load_timeout");
  });

  itWithBrowser("a wait_for_expression that does not compile is 422 page_script_failed", async () => {
    await expectRefused(TO_PDF, { html: "<p>x</p>", wait_for_expression: "this is not javascript (" }, 422, "page_script_failed");
  });

  itWithBrowser("a page that loads more than the byte cap is 422 page_too_large", async () => {
    await expectRefused(TO_PDF, { url: `${pageServer()}/big` }, 422, "page_too_large");
  });

  itWithBrowser("fail_on_http_status turns a 4xx/5xx page into 422; without it the error page is printed", async () => {
    const { body } = await expectRefused(TO_PDF, { url: `${pageServer()}/status/404`, fail_on_http_status: "true" }, 422, "page_http_error");
    expect(body.detail).toContain("404");
    await expectRefused(TO_PDF, { url: `${pageServer()}/status/503`, fail_on_http_status: "true" }, 422, "page_http_error");
    const ok = await postForm(TO_PDF, { url: `${pageServer()}/status/404` }, keyHeaders(await caller()));
    expect(ok.status).toBe(200);
  });

  itWithBrowser("a ZIP of assets that is not a ZIP is 422", async () => {
    await expectRefused(TO_PDF, { html: "<p>x</p>", assets: file(new Uint8Array([1, 2, 3]), "assets.zip", "application/zip") }, 422, "validation_failed");
  });

  itWithBrowser("an asset the markup names but nobody uploaded is simply missing; the page still renders", async () => {
    const zip = zipSync({ "ok.css": new TextEncoder().encode("p{color:red}") });
    const res = await postForm(
      TO_PDF,
      { html: '<link rel=stylesheet href="ok.css"><link rel=stylesheet href="missing.css"><p>still here</p>', assets: file(zip, "a.zip", "application/zip") },
      keyHeaders(await caller()),
    );
    expect(res.status).toBe(200);
  });
});
