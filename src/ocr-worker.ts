import { heapReport, peakReport, samplePeak, wasmTotal } from "./engines/heap";
import { callerAllowed, type OcrCallerEnv } from "./engines/ocr/caller";
import { ocrInstanceStats } from "./engines/ocr/engine";
import { recognizeGray } from "./engines/ocr/recognize";
import { type ModelsEnv, ModelMissing, modelCacheStats } from "./engines/ocr/models";
import { OCR_PROTOCOL, readGrayRequest, readLanguages } from "./engines/ocr/protocol";

// The OCR Worker (workers/ocr/wrangler.toml): Tesseract and its models
// (engines/ocr/languages.ts: some bundled, some in the OCR_MODELS bucket)
// in an isolate of their own, reached only through the main Worker's OCR
// service binding (src/engines/ocr/remote.ts). A Worker of its own because
// its 3.5 MB (gzip) would take the main Worker past the 10 MB bundle limit,
// and because recognition then has an isolate's 128 MB to itself instead of
// sharing the main isolate's budget with MuPDF and the image codecs. It has
// no public URL, and with OCR_SHARED_SECRET set it refuses any request that
// does not carry it (engines/ocr/caller.ts).

export default {
  async fetch(request: Request, env: OcrCallerEnv & ModelsEnv): Promise<Response> {
    // Before anything is read: a stranger gets nothing, not even a 400.
    if (!callerAllowed(request, env)) return Response.json({ error: "forbidden" }, { status: 403 });
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path === OCR_PROTOCOL.recognize) {
      const languages = readLanguages(request);
      if (!languages) return Response.json({ error: "unknown language in x-languages" }, { status: 400 });
      const gray = await readGrayRequest(request);
      if (!gray) return Response.json({ error: "expected an 8-bit grey image with x-width and x-height" }, { status: 400 });
      try {
        const result = await recognizeGray(gray, languages);
        samplePeak();
        return Response.json(result);
      } catch (err) {
        if (err instanceof ModelMissing) return Response.json({ error: "model_missing", language: err.language, detail: err.message }, { status: 503 });
        throw err;
      }
    }
    if (request.method === "GET" && path === OCR_PROTOCOL.runtime) {
      return Response.json({
        wasm_heaps: heapReport(),
        wasm_total: wasmTotal(),
        wasm_peak: samplePeak(),
        wasm_peak_heaps: peakReport(),
        ocr: ocrInstanceStats(),
        models: modelCacheStats(),
      });
    }
    return Response.json({ error: "not found" }, { status: 404 });
  },
} satisfies ExportedHandler<OcrCallerEnv & ModelsEnv>;
