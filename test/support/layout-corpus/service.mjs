// Node side of the generated layout corpus for workerd tests, bound in
// vitest.config.ts as the LAYOUT_CORPUS service (workerd can neither read the
// filesystem nor start Chromium). The corpus is printed on the first request
// only, so test runs that never ask for it never start a browser; later runs
// find it cached under .cache/layout-corpus/.
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { ensureLayoutCorpus } from "./generate.mjs";

/** GET /manifest -> the documents (JSON); GET /file/<path> -> a PDF or truth file. */
export async function layoutCorpusService(request) {
  const url = new URL(request.url);
  try {
    const { dir, manifest } = await ensureLayoutCorpus();
    if (url.pathname === "/manifest") return Response.json(manifest);
    if (url.pathname.startsWith("/file/")) {
      const full = resolve(dir, decodeURIComponent(url.pathname.slice("/file/".length)));
      if (relative(dir, full).startsWith("..")) return new Response("outside the corpus", { status: 400 });
      return new Response(await readFile(full));
    }
    return new Response("unknown request", { status: 400 });
  } catch (err) {
    return new Response(String(err?.message ?? err), { status: 503 });
  }
}
