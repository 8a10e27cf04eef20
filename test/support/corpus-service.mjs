// Node side of test/support/corpus.ts. workerd cannot read the filesystem, so
// vitest.config.ts binds this handler as the CORPUS service: the Worker under
// test fetches `http://corpus/file/<path>` or `http://corpus/list/<dir>` and
// Node answers from the corpus (see corpus-location.mjs), lazily, one file per request.
import { readFile, readdir } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { CORPUS_ROOT } from "./corpus-location.mjs";

function inside(rel) {
  const full = resolve(CORPUS_ROOT, decodeURIComponent(rel));
  const back = relative(CORPUS_ROOT, full);
  return back.startsWith("..") || back.includes(`..${sep}`) ? null : full;
}

/** Miniflare custom service: GET /file/<path> -> bytes, GET /list/<dir> -> JSON file names (recursive). */
export async function corpusService(request) {
  const url = new URL(request.url);
  const [, kind, ...rest] = url.pathname.split("/");
  const full = inside(rest.join("/"));
  if (!full) return new Response("outside the corpus", { status: 400 });
  try {
    if (kind === "file") return new Response(await readFile(full));
    if (kind === "list") {
      const entries = await readdir(full, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((e) => e.isFile())
        .map((e) =>
          relative(full, join(e.parentPath ?? e.path, e.name))
            .split(sep)
            .join("/"),
        );
      return Response.json(files.sort());
    }
  } catch {
    return new Response("not found", { status: 404 });
  }
  return new Response("unknown request", { status: 400 });
}
