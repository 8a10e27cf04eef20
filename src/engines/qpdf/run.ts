import createQpdf, { type QpdfInstance } from "../../../wasm/qpdf-factory.js";
import qpdfWasm from "../../../wasm/qpdf.wasm";
import { registerHeap, samplePeak } from "../heap";

// qpdf 12 compiled to WebAssembly (scripts/copy-qpdf.mjs), run as its
// command line over an in-memory file system. Each run gets a fresh instance
// that is dropped when it ends: instantiating the precompiled module costs
// 6-15 ms and starts a 16.4 MiB heap, against a repair that takes tens to
// hundreds of milliseconds; a fresh instance also means no qpdf state, no
// MEMFS file and no grown heap outlives a call, and an abort (a failed
// allocation) cannot poison the next call. While runs are live their heaps
// are reported as "qpdf" to the runtime report and the memory governor.

export interface QpdfRun {
  /** qpdf's exit code: 0 clean, 3 succeeded with warnings, 2 failed; -1 when the WASM aborted. */
  code: number;
  /** The output file, when qpdf wrote one. */
  output: Uint8Array | null;
  /** What qpdf printed (stdout and stderr, in order), for logs and tests. */
  messages: string[];
}

const live = new Set<WebAssembly.Memory>();
const stats = { runs: 0, aborted: 0 };

function liveBytes(): number {
  let bytes = 0;
  for (const memory of live) bytes += memory.buffer.byteLength;
  return bytes;
}

// Nothing to release when idle: instances live only during a run.
registerHeap("qpdf", liveBytes);

/** Runs of the qpdf engine in this isolate and the bytes of live instances (tests read it). */
export const qpdfStats = () => ({ ...stats, live_bytes: liveBytes() });

/**
 * How far one run's heap may grow. A 2,000-page document linearizes within
 * the 16 MB the heap starts with; a hostile file must not take the isolate's
 * 128 MB: past this, allocation fails inside qpdf, which reports it and exits 2.
 */
export const QPDF_MAX_HEAP_BYTES = 48 * 1024 * 1024;

const IN = "/in.pdf";
const OUT = "/out.pdf";

async function instantiate(messages: string[], maxHeapBytes: number): Promise<{ qpdf: QpdfInstance; memory: () => WebAssembly.Memory | undefined }> {
  let memory: WebAssembly.Memory | undefined;
  const qpdf = await createQpdf({
    async instantiateCompiled(imports) {
      // Workers cannot compile WASM from bytes: instantiate the module the bundler compiled.
      const instance = await WebAssembly.instantiate(qpdfWasm, imports);
      memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
      if (memory) live.add(memory);
      return { instance, module: qpdfWasm };
    },
    maxHeapBytes,
    print: (text) => messages.push(text),
    printErr: (text) => messages.push(text),
  });
  return { qpdf, memory: () => memory };
}

/**
 * Runs `qpdf <options> /in.pdf <more> /out.pdf` over `input`. `args` holds
 * the options between the program name and the input file's place, with
 * "{in}" and "{out}" where the files go.
 */
export async function runQpdf(args: string[], input: Uint8Array, maxHeapBytes = QPDF_MAX_HEAP_BYTES): Promise<QpdfRun> {
  const messages: string[] = [];
  stats.runs++;
  const { qpdf, memory } = await instantiate(messages, maxHeapBytes);
  try {
    qpdf.FS.writeFile(IN, input);
    let code: number;
    try {
      code = qpdf.callMain(args.map((a) => (a === "{in}" ? IN : a === "{out}" ? OUT : a)));
    } catch (err) {
      // An abort (out of memory, a failed assertion) ends this instance; it is dropped below.
      stats.aborted++;
      messages.push(String(err));
      return { code: -1, output: null, messages };
    }
    let output: Uint8Array | null = null;
    try {
      output = qpdf.FS.readFile(OUT).slice();
    } catch {
      // qpdf wrote no output (it failed before writing)
    }
    return { code, output, messages };
  } finally {
    samplePeak();
    const m = memory();
    if (m) live.delete(m);
  }
}
