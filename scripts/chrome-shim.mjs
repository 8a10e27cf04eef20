// Offline Browser Rendering for `wrangler dev` and the tests. miniflare
// emulates the [browser] binding by launching a Chrome it downloads into
// ${XDG_CACHE_HOME}/.wrangler/chrome/linux-<BROWSER_VERSION>/chrome-linux64/chrome
// and skips the download when that file exists. Offline, we put there a
// wrapper that runs the system Chromium (Debian: `apt-get install chromium`).
// XDG_CACHE_HOME points at a project-local, gitignored folder so nothing
// outside the checkout changes. With internet and no Chromium, miniflare's own
// download still works: the wrapper is a fallback, never a requirement.
//
// `node scripts/chrome-shim.mjs` prepares it by hand; vitest.config.ts and
// scripts/dev.mjs call prepareChrome().
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CHROME_CACHE_HOME = join(ROOT, ".wrangler", "xdg-cache");
const MARKER = "# docapi chrome shim";
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

// Both miniflares in the tree (the vitest plugin's and wrangler's own) pin a
// version each; read them rather than hard-coding one that moves.
const MINIFLARE_BUNDLES = ["node_modules/miniflare/dist/src/index.js", "node_modules/wrangler/node_modules/miniflare/dist/src/index.js"];
const FALLBACK_VERSION = "126.0.6478.182";
// util-linux, on every Debian; without it the wrapper simply runs Chromium.
const SETPRIV = "/usr/bin/setpriv";

export function browserVersions() {
  const found = new Set();
  for (const rel of MINIFLARE_BUNDLES) {
    const path = join(ROOT, rel);
    if (!existsSync(path)) continue;
    const m = readFileSync(path, "utf8").match(/var BROWSER_VERSION = "([\d.]+)"/);
    if (m) found.add(m[1]);
  }
  return found.size ? [...found] : [FALLBACK_VERSION];
}

export function systemChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

function shimPath(version) {
  return join(CHROME_CACHE_HOME, ".wrangler", "chrome", `linux-${version}`, "chrome-linux64", "chrome");
}

/** True when `path` is a Chrome miniflare downloaded itself (not our wrapper). */
function isRealChrome(path) {
  return existsSync(path) && !readFileSync(path).subarray(0, 200).toString("latin1").includes(MARKER);
}

/**
 * Points XDG_CACHE_HOME at the project cache and writes the wrapper for each
 * miniflare version. Answers whether a browser can be launched offline.
 */
export function prepareChrome() {
  process.env.XDG_CACHE_HOME = CHROME_CACHE_HOME;
  const chromium = systemChromium();
  let ready = true;
  for (const version of browserVersions()) {
    const path = shimPath(version);
    if (isRealChrome(path)) continue;
    if (!chromium) {
      ready = false;
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    // Root (CI containers) needs --no-sandbox; miniflare adds it only when CI is set.
    // puppeteer starts Chrome in a process group of its own, so stopping
    // wrangler dev or vitest by theirs left it running (a page spinning its
    // script kept a core busy for the rest of the run): the parent-death
    // signal ends it with the process that launched it.
    const reaper = existsSync(SETPRIV) ? `${SETPRIV} --pdeathsig KILL ` : "";
    writeFileSync(path, `#!/bin/sh\n${MARKER}\nexec ${reaper}"${chromium}" --no-sandbox "$@"\n`);
    chmodSync(path, 0o755);
  }
  return ready;
}

export const CHROMIUM_REQUIRED = process.env.REQUIRE_CHROMIUM === "1";

export const CHROMIUM_NOTICE =
  "no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): Browser Rendering tests are skipped. " +
  "REQUIRE_CHROMIUM=1 makes a missing Chromium an error.";

/** For vitest: prepares the shim; one notice when tests must skip, an error under REQUIRE_CHROMIUM=1. */
export function announceChrome(log = console.warn) {
  if (prepareChrome()) return true;
  if (CHROMIUM_REQUIRED) throw new Error("REQUIRE_CHROMIUM=1 but no Chromium was found (apt-get install chromium, or set CHROMIUM_PATH)");
  log(`[docapi tests] ${CHROMIUM_NOTICE}`);
  return false;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ready = prepareChrome();
  console.log(ready ? `Chrome shim ready under ${CHROME_CACHE_HOME}` : CHROMIUM_NOTICE);
}
