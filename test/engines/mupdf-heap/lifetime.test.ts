import { beforeAll, describe, expect, it } from "vitest";
import { outsideCalls } from "../../../src/engines/mupdf/core/lifetime";
import { loadMupdf, MUPDF_RECYCLE_BYTES, mupdfHeapBytes, mupdfInstanceStats, withMupdfCall } from "../../../src/engines/mupdf/core/loader";
import { download, pdfFile, postForm, postJson, withKey } from "../../support/http";
import { PDFDocument } from "pdf-lib";
import { makeImage } from "../../support/pdf.mjs";
import { toBase64 } from "../../../src/secrets/encoding";
import { pageTexts } from "../../support/pdf-text";
import { expectFlat, fixtures, HEAP_CALLS, PDF_TOOL_CALLS, runtime, traceHeap, type Fixtures } from "./calls";

/** A4 pages, each one full-page 300 dpi PNG picture of its own colour. */
async function losslessScans(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const png = await makeImage("png", 2480, 3508, [200 - i * 40, 180, 160]);
    doc.addPage([595, 842]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 595, height: 842 });
  }
  return doc.save();
}

describe("MuPDF wrappers live as long as the call that made them", () => {
  it("every wrapper made in a call is destroyed when it ends; one made outside calls survives", async () => {
    const mupdf = await loadMupdf();
    let kept: { pointer: number }[] = [];
    const survivor = outsideCalls(() => new mupdf.PDFDocument());
    await withMupdfCall(async () => {
      const doc = new mupdf.PDFDocument();
      const dict = doc.newDictionary();
      dict.put("Answer", 42);
      kept = [doc, dict, dict.get("Answer"), doc.getTrailer()];
      expect(kept.every((w) => w.pointer !== 0)).toBe(true);
    });
    expect(kept.map((w) => w.pointer)).toEqual([0, 0, 0, 0]);
    expect(survivor.pointer).not.toBe(0);
    survivor.destroy();
  });

  it("also on the error path", async () => {
    const mupdf = await loadMupdf();
    let doc: { pointer: number } | undefined;
    await expect(
      withMupdfCall(async () => {
        doc = new mupdf.PDFDocument();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(doc?.pointer).toBe(0);
  });

  it("a PDF object wrapper holds one reference, not two: 200,000 dictionaries made and dropped leave the heap where it was", async () => {
    await withMupdfCall(async () => {
      const mupdf = await loadMupdf();
      const doc = new mupdf.PDFDocument();
      const before = mupdfHeapBytes();
      const root = doc.getTrailer();
      for (let i = 0; i < 200_000; i++) {
        const dict = doc.newDictionary();
        dict.put("N", i);
        root.get("Size").destroy();
        dict.destroy();
      }
      // MuPDF.js 1.28.1 as published kept every one (300,000 grew the heap by 33 MB; scripts/mupdf-factory.mjs).
      expect(mupdfHeapBytes() - before).toBeLessThan(1024 * 1024);
    });
  });
});

describe("replacing a grown MuPDF instance", () => {
  it("waits for running calls: a MuPDF call arriving meanwhile is held, then runs on a fresh instance", async () => {
    const order: string[] = [];
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const before = mupdfInstanceStats();

    // B holds the instance; A grows the heap past the bound and ends; C arrives.
    const b = withMupdfCall(async () => {
      await loadMupdf();
      order.push("B starts");
      await gate;
      order.push("B ends");
    });
    await withMupdfCall(async () => {
      const mupdf = await loadMupdf();
      new mupdf.Buffer(new Uint8Array(MUPDF_RECYCLE_BYTES));
    });
    expect(mupdfHeapBytes()).toBeGreaterThan(MUPDF_RECYCLE_BYTES);
    const c = withMupdfCall(async () => {
      await loadMupdf();
      order.push(`C runs at ${Math.round(mupdfHeapBytes() / 2 ** 20)} MiB`);
    });
    // A call that never asks for MuPDF (an image tool) is not held.
    await withMupdfCall(async () => {
      order.push("D without MuPDF runs");
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(["B starts", "D without MuPDF runs"]);

    openGate();
    await Promise.all([b, c]);
    expect(order).toEqual(["B starts", "D without MuPDF runs", "B ends", "C runs at 22 MiB"]);
    expect(mupdfInstanceStats()).toMatchObject({ recycled: before.recycled + 1, instances: before.instances + 1 });
  });
});

describe("MuPDF heap under a mixed sequence of tools (issue #18)", () => {
  let f: Fixtures;
  beforeAll(async () => {
    f = await fixtures();
  });

  it(`${HEAP_CALLS} calls cycling through every PDF tool leave the heap flat`, async () => {
    expectFlat(await traceHeap(f, Object.values(PDF_TOOL_CALLS), HEAP_CALLS), "mixed");
  }, 900_000);

  it("a call that grows the heap past the bound gets a fresh instance for the next call, which works", async () => {
    const before = await runtime();
    // Two 300 dpi page images stored losslessly (Flate): compression has MuPDF decode each whole
    // (JPEG scans no longer reach MuPDF's decoder, see src/engines/mupdf/compress/dct-road.ts).
    const heavy = await losslessScans(2);
    const res = await postJson("/api/v1/compression/single", { file_data: toBase64(heavy), filename: "scan.pdf" }, withKey(f.key));
    expect(res.status).toBe(200);
    const after = await runtime();
    expect(after.recycled).toBe(before.recycled + 1);
    expect(after.mupdfBytes).toBeLessThanOrEqual(after.bound);

    // The next call starts a new instance; fonts installed per instance come back with it.
    const stamped = await postForm("/api/v1/watermark/text", { file: pdfFile(f.small, "doc.pdf"), text: "سري للغاية" }, withKey(f.key));
    expect(stamped.status).toBe(200);
    const texts = await pageTexts(await download(((await stamped.json()) as { url: string }).url));
    // Shaped Arabic comes back in presentation forms; NFKC folds them to the letters typed.
    expect(texts[0].normalize("NFKC")).toContain("سري");
    const fresh = await runtime();
    expect(fresh.instances).toBe(after.instances + 1);
    expect(fresh.mupdfBytes).toBeGreaterThan(0);
  }, 120_000);
});
