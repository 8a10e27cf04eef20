import { env } from "cloudflare:workers";
import type { Truth } from "./score";

// The generated layout corpus inside workerd tests, through the LAYOUT_CORPUS
// service (service.mjs, bound in vitest.config.ts). Printing it needs
// Chromium: tests that read it are declared with itWithBrowser and skip
// (or, under REQUIRE_CHROMIUM=1, fail) without one.

export interface Entry {
  family: string;
  name: string;
  pdf: string;
  truth: string;
  pages: number;
}

function service(): Fetcher {
  const binding = (env as unknown as { LAYOUT_CORPUS?: Fetcher }).LAYOUT_CORPUS;
  if (!binding) throw new Error("LAYOUT_CORPUS service binding missing: see vitest.config.ts (miniflare.serviceBindings)");
  return binding;
}

async function get(path: string): Promise<Response> {
  const res = await service().fetch(`http://layout-corpus${path}`);
  if (!res.ok) throw new Error(`layout corpus ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** Every generated document; the first call may wait while Chromium prints the set (about 40 s). */
export const layoutManifest = async (): Promise<Entry[]> => (await get("/manifest")).json();

export const layoutPdf = async (e: Entry): Promise<Uint8Array> => new Uint8Array(await (await get(`/file/${e.pdf}`)).arrayBuffer());

export const layoutTruth = async (e: Entry): Promise<Truth> => (await get(`/file/${e.truth}`)).json();
