import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { file } from "../../support/http";
import { expectRefused, PREVIEW, TO_PDF } from "./helpers";

// Bad asset sets are refused with a problem naming what to fix, and charge
// nothing. The file parts alone are judged when the request is validated
// (before a debit or a browser); a ZIP's entries join them once it is
// opened, so a clash between the two is found then and refunded.

const enc = (s: string) => new TextEncoder().encode(s);
const part = (name: string, body = "p{}") => file(enc(body), name, "text/css");
const zipOf = (entries: Record<string, string>) =>
  file(zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, enc(v)]))), "assets.zip", "application/zip");
const HTML = "<p>x</p>";

describe("HTML to PDF: asset files refused at validation", () => {
  it("two parts under one name are 422 on the files field", async () => {
    const { body } = await expectRefused(TO_PDF, { html: HTML, files: [part("style.css"), part("style.css", "h1{}")] }, 422, "validation_failed");
    expect(body.errors?.[0].field).toBe("files");
    expect(body.detail).toContain("style.css");
  });

  it("names that differ only by ./ or a backslash are still one name", async () => {
    await expectRefused(TO_PDF, { html: HTML, files: [part("css/a.css"), part("./css\\a.css")] }, 422, "validation_failed");
  });

  it.each(["../secret.css", "css/../../x.css", "/etc/passwd", "https://cdn.example/lib.css", "C:\\Users\\me\\style.css"])(
    "refuses the name %s (422): outside the page's folder or absolute",
    async (name) => {
      const { body } = await expectRefused(TO_PDF, { html: HTML, files: [part(name)] }, 422, "validation_failed");
      expect(body.errors?.[0].field).toBe("files");
    },
  );

  it("more than 1,000 assets are 413", async () => {
    const parts = Array.from({ length: 1001 }, (_, i) => part(`a${i}.css`));
    const { body } = await expectRefused(TO_PDF, { html: HTML, files: parts }, 413, "payload_too_large");
    expect(body.detail).toContain("1000");
  });

  it("more than 50 MiB of parts together are 413, each part being under the upload cap", async () => {
    const big = new Uint8Array(26 * 1024 * 1024);
    const parts = [file(big, "a.png", "image/png"), file(big, "b.png", "image/png")];
    await expectRefused(TO_PDF, { html: HTML, files: parts }, 413, "payload_too_large");
  });

  it("HTML preview applies the same rules", async () => {
    await expectRefused(PREVIEW, { html: HTML, files: [part("x.css"), part("x.css")] }, 422, "validation_failed");
  });
});

describe("HTML to PDF: asset files and a ZIP are one set", () => {
  it("a ZIP entry with the name of a file part is 422, refunded", async () => {
    const { body } = await expectRefused(TO_PDF, { html: HTML, files: [part("style.css")], assets: zipOf({ "style.css": "p{}" }) }, 422, "validation_failed");
    expect(body.detail).toContain("style.css");
  });

  it("a ZIP entry that climbs out of its folder is 422", async () => {
    await expectRefused(TO_PDF, { html: HTML, assets: zipOf({ "../evil.css": "p{}" }) }, 422, "validation_failed");
  });

  it("parts and ZIP entries count together against the 1,000-asset cap (413)", async () => {
    const entries = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`z${i}.css`, "p{}"]));
    const parts = Array.from({ length: 401 }, (_, i) => part(`f${i}.css`));
    await expectRefused(TO_PDF, { html: HTML, files: parts, assets: zipOf(entries) }, 413, "payload_too_large");
  });
});
