// Where the shared test corpus lives, decided once for vitest (Node side) and
// the e2e run. The corpus holds files from other public projects, so it stays
// outside the repository: by default ../shared/corpus beside the checkout (the
// development and CI layout), or wherever CORPUS_DIR points. A fresh clone has
// none: tests that need it skip with one notice, unless REQUIRE_CORPUS=1
// (set by .ci/run), under which a missing corpus fails the run instead.
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const CORPUS_ROOT = process.env.CORPUS_DIR ? resolve(process.env.CORPUS_DIR) : resolve(ROOT, "..", "shared", "corpus");

const isDir = (path) => existsSync(path) && statSync(path).isDirectory();

export const CORPUS_AVAILABLE = isDir(CORPUS_ROOT);

export const CORPUS_REQUIRED = process.env.REQUIRE_CORPUS === "1";

export const CORPUS_NOTICE =
  `corpus not found at ${CORPUS_ROOT}: tests that need it are skipped. ` +
  "Point CORPUS_DIR at a copy of shared/corpus to run them (REQUIRE_CORPUS=1 makes a missing corpus an error).";

/** Throws under REQUIRE_CORPUS when the corpus is missing; otherwise says once that corpus tests skip. */
export function announceCorpus(log = console.warn) {
  if (CORPUS_AVAILABLE) return true;
  if (CORPUS_REQUIRED) throw new Error(`REQUIRE_CORPUS=1 but no corpus directory at ${CORPUS_ROOT} (set CORPUS_DIR)`);
  log(`[docapi tests] ${CORPUS_NOTICE}`);
  return false;
}
