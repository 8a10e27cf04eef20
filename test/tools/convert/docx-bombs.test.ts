import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, problem, withKey } from "../../support/http";
import { simpleDocx } from "../../support/pdf.mjs";
import { lyingZip } from "../../engines/zip-lies";
import { convert, converted } from "./support";

// Issue #31: ZIP packages (DOCX, HTML assets) are unpacked with a running
// cap on what they really expand to. A 240 KB DOCX whose media part is
// 240 MB of zeros, or whose directory lies, is refused by every tool that
// takes a DOCX and by HTML to PDF's assets ZIP, fast and free.

const MiB = 1024 * 1024;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const DOCUMENT =
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';

/** A valid DOCX plus a media part of `mediaBytes` zeros, deflated at level 9. */
const docxWithMedia = (mediaBytes: number) =>
  zipSync(
    {
      "[Content_Types].xml": strToU8(CONTENT_TYPES),
      "_rels/.rels": strToU8(RELS),
      "word/document.xml": strToU8(DOCUMENT),
      "word/media/zero.bin": new Uint8Array(mediaBytes),
    },
    { level: 9 },
  );

/** The same DOCX with its media part first in the ZIP and its directory claiming 1 KB for it (50 MB inside). */
const makeLyingDocx = () => {
  const media = zipSync(
    {
      "word/media/zero.bin": new Uint8Array(50 * MiB),
      "[Content_Types].xml": strToU8(CONTENT_TYPES),
      "_rels/.rels": strToU8(RELS),
      "word/document.xml": strToU8(DOCUMENT),
    },
    { level: 9 },
  );
  return lyingZip(media, 1024);
};

// Made once: deflating 240 MB takes workerd several seconds.
const bomb = docxWithMedia(240 * MiB);
const lyingDocx = makeLyingDocx();

async function refused(call: (key: string) => Promise<Response>) {
  const acct = await accountWithKey({ credits: 200 });
  const started = Date.now();
  const res = await call(acct.key);
  const ms = Date.now() - started;
  const body = await problem(res);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  expect(await balanceOf(acct.token)).toBe(200);
  expect(ms).toBeLessThan(5000);
  return { status: res.status, body };
}

describe("ZIP bombs are refused before they expand", () => {
  it("the bomb is small on the wire", () => {
    expect(bomb.byteLength).toBeLessThan(400_000);
  });

  it("DOCX → PDF, TXT and Markdown: 422 too_many_pages, naming the part that passes the cap", async () => {
    for (const target of ["pdf", "txt", "md"]) {
      const { status, body } = await refused(async (key) => (await convert(bomb, "bomb.docx", target, {}, withKey(key))).res);
      expect(status, target).toBe(422);
      expect(body.code).toBe("too_many_pages");
      expect(body.detail).toMatch(/The DOCX expands to more than 32 MiB \(at word\/media\/zero\.bin\)/);
    }
  });

  it("Compare documents with a DOCX bomb: 422, refunded", async () => {
    const ok = (await simpleDocx()).bytes;
    const { status, body } = await refused((key) =>
      postForm(
        "/api/v1/analyze/compare",
        { file1: file(ok, "a.docx", "application/octet-stream"), file2: file(bomb, "b.docx", "application/octet-stream") },
        withKey(key),
      ),
    );
    expect(status).toBe(422);
    expect(body.detail).toMatch(/^file2: The DOCX expands to more than 32 MiB/);
  });

  it("a DOCX whose directory understates a part (1 KB declared, 50 MB inside) is 422 unreadable_document", async () => {
    for (const target of ["pdf", "txt", "md"]) {
      const { status, body } = await refused(async (key) => (await convert(lyingDocx, "liar.docx", target, {}, withKey(key))).res);
      expect(status, target).toBe(422);
      expect(body.code).toBe("unreadable_document");
      expect(body.detail).toMatch(/word\/media\/zero\.bin inflates to more than the 1024 bytes its directory declares/);
    }
  });

  it("HTML to PDF: an assets ZIP bomb is 413 payload_too_large, a lying one 422 validation_failed", async () => {
    // A DOCX is a ZIP too: the same bombs serve as asset ZIPs.
    const big = await refused((key) =>
      postForm("/api/v1/html/to-pdf", { html: "<p>x</p>", assets: file(bomb, "assets.zip", "application/zip") }, withKey(key)),
    );
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("payload_too_large");
    expect(big.body.detail).toMatch(/The assets ZIP expands to more than 32 MiB \(at word\/media\/zero\.bin\)/);
    const lying = await refused((key) =>
      postForm("/api/v1/html/to-pdf", { html: "<p>x</p>", assets: file(lyingDocx, "assets.zip", "application/zip") }, withKey(key)),
    );
    expect(lying.status).toBe(422);
    expect(lying.body.code).toBe("validation_failed");
  });

  it("an ordinary DOCX still converts, a media part of a few MB included", async () => {
    const { bytes, lines } = await simpleDocx();
    const { out } = await converted(bytes, "plan.docx", "txt", "mammoth-text");
    for (const l of lines) expect(new TextDecoder().decode(out)).toContain(l);
    const md = await converted(docxWithMedia(4 * MiB), "media.docx", "md", "mammoth-markdown");
    expect(new TextDecoder().decode(md.out)).toContain("Hello");
  });
});
