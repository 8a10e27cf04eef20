import { z } from "zod";
import { heapReport } from "../../engines/heap";
import { pdfImageRoads } from "../../engines/mupdf/compress/dct-road";
import { mupdfInstanceStats } from "../../engines/mupdf/core/loader";
import { ocrWorkerRuntime } from "../../engines/ocr/remote";
import { defineRoute } from "../../http/route";
import { memoryReport } from "../../runtime/memory";
import { imageRoadsTaken } from "../../engines/images/memory/roads-taken";

const bytes = z.number().int();

// The memory of the isolate that answers (docs/memory.md): heaps by engine,
// their total and peak, the budget calls are admitted against; and, under
// `workers`, the same report from each engine Worker behind a service
// binding (the OCR Worker: its own isolate, its own 128 MB).
const runtime = defineRoute({
  id: "adminRuntimeReport",
  method: "get",
  path: "/admin/v1/runtime",
  tags: ["operator"],
  summary: "Memory of the isolate that answers",
  auth: "admin",
  responses: {
    200: {
      description: "WASM heaps by engine, the memory governor's counters, MuPDF instance statistics",
      schema: z.object({
        wasm_heaps: z.record(z.string(), bytes),
        wasm_total: bytes,
        wasm_peak: bytes,
        wasm_peak_heaps: z.record(z.string(), bytes),
        budget: bytes,
        reserved: bytes,
        largest_reservation: bytes,
        running: z.number().int(),
        running_calls: z
          .array(z.object({ tool: z.string(), bytes, seconds: z.number().int(), engines: z.array(z.string()) }))
          .meta({ description: "The calls holding a reservation now: tool, bytes reserved, seconds since admission, engines taken." }),
        waiting: z.number().int(),
        admitted: z.number().int(),
        queued: z.number().int(),
        refused: z.number().int(),
        released_idle: z.number().int(),
        abandoned: z
          .number()
          .int()
          .meta({ description: "Reservations and queued calls dropped because their client went away (or their lease expired) before they ended." }),
        mupdf: z.record(z.string(), z.unknown()),
        images: z.object({ roads: z.object({ sources: z.record(z.string(), z.number()), sinks: z.record(z.string(), z.number()) }) }),
        workers: z.object({
          ocr: z
            .object({
              wasm_heaps: z.record(z.string(), bytes),
              wasm_total: bytes,
              wasm_peak: bytes,
              wasm_peak_heaps: z.record(z.string(), bytes),
              ocr: z.record(z.string(), z.unknown()),
            })
            .nullable()
            .meta({ description: "The OCR Worker's isolate (one of possibly several); null when it is not bound or did not answer." }),
        }),
      }),
    },
  },
  handler: async (c) =>
    c.json({
      wasm_heaps: heapReport(),
      ...memoryReport(),
      // Recompressed PDF images by road beside the instances: big plain JPEGs skip MuPDF's whole-image decode (dct-road.ts).
      mupdf: { ...mupdfInstanceStats(), image_roads: { ...pdfImageRoads } },
      images: { roads: imageRoadsTaken() },
      workers: { ocr: await ocrWorkerRuntime() },
    }),
});

export const ADMIN_RUNTIME_ROUTES = [runtime];
