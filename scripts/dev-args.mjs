// The arguments `npm run dev` gives `wrangler dev`: the user's own, plus our
// defaults (127.0.0.1:8787) for whichever of --ip and --port they did not
// set. wrangler refuses a flag given twice, so a default never doubles one.

/** @param {string[]} extra what followed `npm run dev --` @returns {string[]} */
export function devArgs(extra) {
  const has = (/** @type {string} */ flag) => extra.some((a) => a === flag || a.startsWith(`${flag}=`));
  return [...(has("--ip") ? [] : ["--ip", "127.0.0.1"]), ...(has("--port") ? [] : ["--port", "8787"]), ...extra];
}

/**
 * The Workers `wrangler dev` runs together: the API first (it answers on the
 * port), then the OCR Worker its OCR service binding reaches
 * (workers/ocr/wrangler.toml).
 */
export const WORKER_CONFIGS = ["-c", "wrangler.toml", "-c", "workers/ocr/wrangler.toml"];
