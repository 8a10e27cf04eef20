// `npm run dev [-- wrangler dev args]`: creates .dev.vars with random secrets
// when it is missing, applies local D1 migrations, seeds the local OCR models
// bucket, then starts `wrangler dev`
// on http://127.0.0.1:8787 (offline; state in .wrangler/state).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_NOTICE, prepareChrome } from "./chrome-shim.mjs";
import { devArgs, WORKER_CONFIGS } from "./dev-args.mjs";
import { seedOcrModels } from "./ocr-models-seed.mjs";
import { OCR_LANGUAGES } from "../src/engines/ocr/languages.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const devVars = join(root, ".dev.vars");

if (!existsSync(devVars)) {
  const jwt = randomBytes(32).toString("base64url");
  const admin = randomBytes(24).toString("base64url");
  writeFileSync(devVars, `JWT_SECRET=${jwt}\nADMIN_TOKEN=${admin}\nALLOW_INSECURE_WEBHOOKS=true\nALLOW_PRIVATE_WEBHOOK_TARGETS=true\n`, { mode: 0o600 });
  console.log(`Created .dev.vars. Operator token (shown once): ADMIN_TOKEN=${admin}`);
}

// Browser Rendering offline: miniflare launches the system Chromium through
// a wrapper under .wrangler/xdg-cache (sets XDG_CACHE_HOME for wrangler).
if (!prepareChrome()) console.warn(`HTML to PDF needs a browser: ${CHROMIUM_NOTICE.split(":")[0]}; miniflare will try to download Chrome.`);

const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const migrate = spawnSync(process.execPath, [wrangler, "d1", "migrations", "apply", "DB", "--local"], {
  cwd: root,
  env: { ...env, CI: "true" }, // no confirmation prompt
  stdio: ["ignore", "inherit", "inherit"],
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

// The OCR models kept in R2 rather than bundled (spa, nld: docs/reference/pdf-ocr.md), put into the
// local bucket once; a marker beside the state says so, and naming the models seeded redoes it when they change.
const seededMarker = join(root, ".wrangler", "ocr-models.seeded");
const r2Models = Object.entries(OCR_LANGUAGES)
  .filter(([, l]) => l.home === "r2")
  .map(([code]) => code)
  .join(",");
if (!existsSync(seededMarker) || readFileSync(seededMarker, "utf8") !== r2Models) {
  try {
    seedOcrModels({ where: "--local", quiet: true });
    writeFileSync(seededMarker, r2Models);
  } catch (err) {
    console.warn(`OCR models not seeded (${err.message.split("\n")[0]}): ${r2Models} will answer 503 ocr_unavailable.`);
  }
}

// DEV_MAILBOX: sign-in links are read at http://127.0.0.1:8787/dev/mailbox (docs/operations.md).
const child = spawn(process.execPath, [wrangler, "dev", ...WORKER_CONFIGS, "--var", "DEV_MAILBOX:true", ...devArgs(process.argv.slice(2))], {
  cwd: root,
  env,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
