import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { call, download, postJson, problem, withKey } from "../../support/http";
import { makePdf, annotatedPdf, scannedPdf } from "../../support/pdf.mjs";
import { pageCount, pdfStructure, readPdf } from "../../support/pdf-read";
import { fullSsim, mupdfTexts } from "../../support/mupdf";
import { toBase64 } from "../../../src/secrets/encoding";
import type { Answer } from "../../support/answers";

const SINGLE = "/api/v1/compression/single";

type Result = Answer<"compress-pdf">;

let scan: Uint8Array;
beforeAll(async () => {
  scan = await scannedPdf(3);
});

afterEach(() => {
  vi.useRealTimers();
});

async function compress(bytes: Uint8Array, auth: Record<string, string> = {}, options?: unknown) {
  const res = await postJson(SINGLE, { file_data: toBase64(bytes), filename: "in.PDF", ...(options === undefined ? {} : { options }) }, auth);
  return { res, body: (await res.json()) as Result };
}

describe("POST /api/v1/compression/single", () => {
  // A three-page 300 dpi scan: on two busy cores this takes up to a minute.
  it("anonymous: medium level, every response field, a smaller PDF that still looks the same", { timeout: 180_000 }, async () => {
    const { res, body } = await compress(scan);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(body).toMatchObject({ status: "completed", level: "medium", tier_power_used: 0.8, could_compress_more: true, pages: 3, original_returned: false });
    expect(body.compression_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.original_size).toBe(scan.byteLength);
    expect(body.compressed_size).toBeLessThan(scan.byteLength * 0.5);
    expect(body.compression_ratio).toBeCloseTo(body.compressed_size / body.original_size, 3);
    expect(body.images_recompressed).toBe(3);
    expect(body.processing_time_ms).toBeGreaterThanOrEqual(0);
    // 24 h link under tmp/ with a signature (docs/reference/files.md).
    expect(body.download_url).toMatch(/\/files\/tmp\/.*\?expires=\d+&sig=/);
    const hours = (Date.parse(body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const out = await download(body.download_url);
    expect(out.byteLength).toBe(body.compressed_size);
    expect((await pdfStructure(out)).pages).toBe(3);
    // quality_score is measured: a full-document SSIM agrees with the sampled one.
    const measured = await fullSsim(scan, out, 3);
    expect(measured).toBeGreaterThan(0.9);
    expect(Math.abs(measured - body.quality_score)).toBeLessThan(0.02);
  });

  // Three compressions of a three-page 300 dpi scan, one after another.
  it("levels really differ: free=basic, starter=medium, pro=maximum; 20 credits each", { timeout: 400_000 }, async () => {
    const sizes: number[] = [];
    const expected = [
      ["free", "basic", 0.6, true],
      ["starter", "medium", 0.8, true],
      ["pro", "maximum", 1.0, false],
    ] as const;
    for (const [plan, level, power, more] of expected) {
      const acct = await accountWithKey({ plan, credits: 100 });
      const { res, body } = await compress(scan, withKey(acct.key));
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.headers.get("X-Credits-Charged")).toBe("20");
      expect(await balanceOf(acct.token)).toBe(80);
      expect(body).toMatchObject({ level, tier_power_used: power, could_compress_more: more });
      expect(body.quality_score).toBeGreaterThan(0.85);
      sizes.push(body.compressed_size);
    }
    expect(sizes[0]).toBeGreaterThan(sizes[1]);
    expect(sizes[1]).toBeGreaterThan(sizes[2]);
  });

  itWithCorpus("a real image-heavy document (docling redp5110) shrinks with images downsampled and text intact", async () => {
    const pdf = await corpusFile("markdown/docling/redp5110_sampled.pdf");
    const { res, body } = await compress(pdf);
    expect(res.status).toBe(200);
    expect(body.compressed_size).toBeLessThan(pdf.byteLength * 0.6);
    const out = await download(body.download_url);
    expect(await pageCount(out)).toBe(18);
    // Its composite fonts carry no ToUnicode map, which our pdf-lib text reader refuses: MuPDF's own reading, before and after.
    expect((await mupdfTexts(out)).join("\n")).toBe((await mupdfTexts(pdf)).join("\n"));
    expect(body.quality_score).toBeGreaterThan(0.95);
  });

  it("could_compress_more is false for a document without images, whose every level gives the same file", async () => {
    const { res, body } = await compress(await makePdf({ pages: 2, label: "Text only" }));
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ level: "medium", could_compress_more: false, images_recompressed: 0 });
  });

  itWithCorpus("never answers with a larger file: the original bytes come back and say so", async () => {
    // pdf-lib's one-pager is already minimal; a compressed file compressed again gains nothing either.
    const tiny = await makePdf({ pages: 1, label: "Tiny" });
    const pdfjs = await corpusFile("pdfjs/plain/doc_1_3_pages.pdf");
    const first = await compress(pdfjs);
    expect(first.body.original_returned).toBe(false);
    const again = await download(first.body.download_url);
    for (const input of [tiny, again]) {
      const { res, body } = await compress(input);
      expect(res.status).toBe(200);
      expect(body.original_returned).toBe(true);
      expect(body.compressed_size).toBe(input.byteLength);
      expect(body.compression_ratio).toBe(1);
      expect(body.quality_score).toBe(1);
      expect(await download(body.download_url)).toEqual(input);
    }
  });

  it("options are honoured: defaults keep metadata, notes and fields; false drops, drops, flattens", async () => {
    const { bytes, fieldValue } = await annotatedPdf();
    const kept = await compress(bytes);
    const keptFacts = await pdfStructure(await download(kept.body.download_url));
    expect(keptFacts.title).toBe("Options title");
    expect(keptFacts.hasXmp).toBe(true);
    expect(keptFacts.fields).toEqual(["customer"]);
    expect(keptFacts.annotationSubtypes).toEqual(["Link", "Text", "Widget"]);

    const options = { preserve_metadata: false, preserve_annotations: false, preserve_forms: false };
    const dropped = await compress(bytes, {}, options);
    expect(dropped.res.status).toBe(200);
    const out = await download(dropped.body.download_url);
    const facts = await pdfStructure(out);
    expect(facts.title).toBeNull();
    expect(facts.hasXmp).toBe(false);
    expect(facts.fields).toEqual([]);
    expect(facts.annotationSubtypes).toEqual(["Link"]);
    // Flattened, not deleted: the field's value is now page content.
    expect((await readPdf(out)).text[0]).toContain(fieldValue);
    expect(dropped.body.quality_score).toBeLessThan(1);
  });

  it("the download link answers 410 once expires_at has passed", async () => {
    const { body } = await compress(scan);
    expect((await call(body.download_url)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(body.expires_at) + 1000);
    const gone = await call(body.download_url);
    expect(gone.status).toBe(410);
    expect((await problem(gone)).code).toBe("gone");
  });
});

describe("compress PDF errors (docs/reference/pdf-toolkit.md)", () => {
  const pdfB64 = () => toBase64(scan);

  it("400 invalid_base64, refunded: the balance does not move", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 100 });
    const res = await postJson(SINGLE, { file_data: `${"A".repeat(120)}*!`, filename: "x.pdf" }, withKey(acct.key));
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("invalid_base64");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("422 for a short file_data, a non-.pdf filename, a missing field, or Base64 that is not a PDF", async () => {
    const cases: [unknown, string][] = [
      [{ file_data: "JVBERi0=", filename: "a.pdf" }, "file_data"],
      [{ file_data: pdfB64(), filename: "a.docx" }, "filename"],
      [{ filename: "a.pdf" }, "file_data"],
      [{ file_data: toBase64(new TextEncoder().encode("plain text, not a PDF ".repeat(10))), filename: "a.pdf" }, "file_data"],
    ];
    for (const [body, field] of cases) {
      const res = await postJson(SINGLE, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      const p = await problem(res);
      expect(p.code).toBe("validation_failed");
      expect(p.errors?.map((e) => e.field)).toContain(field);
    }
  });

  itWithCorpus("422 password_protected for an encrypted PDF; options of the wrong type are 422", async () => {
    const locked = await corpusFile("qpdf/encrypted/enc-R2_V1_U-view_O-master.pdf");
    const res = await postJson(SINGLE, { file_data: toBase64(locked), filename: "locked.pdf" });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("password_protected");
    const bad = await postJson(SINGLE, { file_data: pdfB64(), filename: "a.pdf", options: { preserve_forms: "no" } });
    expect(bad.status).toBe(422);
  });

  it("402 when the balance cannot cover 20 credits; nothing is charged", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 15 });
    const res = await postJson(SINGLE, { file_data: pdfB64(), filename: "a.pdf" }, withKey(acct.key));
    expect(res.status).toBe(402);
    expect((await problem(res)).code).toBe("insufficient_credits");
    expect(await balanceOf(acct.token)).toBe(15);
  });

  it("429 with Retry-After past 20 anonymous calls a minute from one IP", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) last = await call(SINGLE, { method: "POST", ip: "203.0.113.77", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("POST /api/v1/compression/batch", () => {
  const BATCH = "/api/v1/compression/batch";

  itWithCorpus("compresses every file for real, one result each in order, 20 credits per file", async () => {
    const acct = await accountWithKey({ plan: "starter", credits: 100 });
    const pdfjs = await corpusFile("pdfjs/plain/three_pages_with_number.pdf");
    const inputs = [
      { filename: "scan.pdf", bytes: scan },
      { filename: "numbers.pdf", bytes: pdfjs },
      { filename: "tiny.pdf", bytes: await makePdf({ pages: 1 }) },
    ];
    const res = await postJson(BATCH, { files: inputs.map((f) => ({ filename: f.filename, file_data: toBase64(f.bytes) })) }, withKey(acct.key));
    const body = (await res.json()) as Answer<"compress-pdf-batch">;
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("60");
    expect(body.credits_charged).toBe(60);
    expect(await balanceOf(acct.token)).toBe(40);
    expect(body.batch_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.results.map((r) => r.filename)).toEqual(["scan.pdf", "numbers.pdf", "tiny.pdf"]);
    for (const [i, r] of body.results.entries()) {
      expect(r).toMatchObject({ status: "completed", level: "medium", original_size: inputs[i].bytes.byteLength });
      const out = await download(r.download_url);
      expect(out.byteLength).toBe(r.compressed_size);
      expect((await pdfStructure(out)).pages).toBe((await pdfStructure(inputs[i].bytes)).pages);
    }
    expect(body.results[0].compressed_size).toBeLessThan(scan.byteLength * 0.5);
    expect(body.results[1].compressed_size).toBeLessThan(pdfjs.byteLength);
    expect(body.results[2].original_returned).toBe(true);
  });

  it("a bad file fails the whole call with its field named; nothing charged", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 100 });
    const files = [
      { filename: "a.pdf", file_data: toBase64(await makePdf({ pages: 1 })) },
      { filename: "b.pdf", file_data: `${"B".repeat(150)}%%` },
    ];
    const res = await postJson(BATCH, { files }, withKey(acct.key));
    expect(res.status).toBe(400);
    const p = await problem(res);
    expect(p.code).toBe("invalid_base64");
    expect(p.errors?.[0].field).toBe("files.1.file_data");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("422 for no files or more than 20; anonymous batches are free", async () => {
    const one = { filename: "a.pdf", file_data: toBase64(await makePdf({ pages: 1 })) };
    expect((await postJson(BATCH, { files: [] })).status).toBe(422);
    expect((await postJson(BATCH, { files: Array.from({ length: 21 }, () => one) })).status).toBe(422);
    const anon = await postJson(BATCH, { files: [one, one] });
    expect(anon.status).toBe(200);
    expect(anon.headers.get("X-Credits-Charged")).toBe("0");
  });
});
