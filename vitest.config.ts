import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { announceChrome } from "./scripts/chrome-shim.mjs";
import { announceCorpus } from "./test/support/corpus-location.mjs";
import { corpusService } from "./test/support/corpus-service.mjs";
import { layoutCorpusService } from "./test/support/layout-corpus/service.mjs";
import { startPageServer } from "./test/support/page-server.mjs";
import { startAiStub } from "./test/support/ai-stub.mjs";
import { buildOcrWorker } from "./scripts/ocr-worker-build.mjs";

// test/e2e/*.test.mjs are node:test files run against `wrangler dev` (npm run test:smoke).
const TESTS = ["test/**/*.test.ts", "src/**/*.test.ts"];
/** Test files that need an isolate of their own (see `projects` below). */
const OWN_ISOLATE = [
  "test/webhooks/**/*.test.ts",
  "test/runtime/**/*.test.ts",
  "test/engines/mupdf-heap/**/*.test.ts",
  "test/engines/ocr/engine.test.ts",
  "test/tools/images/**/*.test.ts",
  "test/tools/repair/recovery.test.ts",
  // Compressions of 300 dpi scans, up to a minute of CPU each, ran past their timeouts in a shared isolate.
  "test/tools/compress/compress.test.ts",
  "test/tools/pdf-to-markdown/memory.test.ts",
  "test/tools/pdf-to-markdown/ocr.test.ts",
  "test/tools/pdf-to-markdown/ocr-pictures.test.ts",
  "test/tools/ocr-pdf/**/*.test.ts",
  "test/openapi/responses.test.ts",
  "test/auth/anonymous-rate-limit.test.ts",
  "src/engines/images/avif/frame-choice.test.ts",
  "src/engines/images/png/band-source.test.ts",
  "src/engines/qpdf/linearization.test.ts",
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // One notice (or, under REQUIRE_CORPUS=1, an error) when ../shared/corpus is absent.
  const corpusAvailable = announceCorpus();
  // Browser Rendering offline: points XDG_CACHE_HOME at .wrangler/xdg-cache and
  // writes the Chromium wrapper miniflare launches; one notice (or, under
  // REQUIRE_CHROMIUM=1, an error) when there is no Chromium.
  const browserAvailable = announceChrome();
  // Pages for url sources, on a loopback port the renderer may load only
  // because BROWSER_DEV_ALLOWED_ORIGINS names exactly this origin (and one
  // where nothing listens).
  const pageServer = await startPageServer();
  // A scripted OpenAI-compatible model server; AI tests point AI_BASE_URL at it per request (test/support/ai.ts).
  const aiStub = await startAiStub();
  // The OCR Worker bundled as it deploys (workers/ocr/wrangler.toml), run beside the main one behind its OCR binding.
  const ocrModules = buildOcrWorker();
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            CORPUS_AVAILABLE: corpusAvailable ? "true" : "false",
            BROWSER_AVAILABLE: browserAvailable ? "true" : "false",
            BROWSER_DEV_ALLOWED_ORIGINS: `${pageServer.origin},${pageServer.deadOrigin}`,
            PAGE_SERVER_ORIGIN: pageServer.origin,
            DEAD_ORIGIN: pageServer.deadOrigin,
            AI_STUB_ORIGIN: aiStub.origin,
            // Timeout tests wait this long, not 30 s.
            BROWSER_PAGE_TIMEOUT_MS: "6000",
            JWT_SECRET: "test-jwt-secret-0123456789abcdef",
            MAIL_FROM: "alerts@docapi.test",
            // Auth tests read sign-in links from GET /dev/mailbox.json, as a developer would.
            DEV_MAILBOX: "true",
            ADMIN_TOKEN: "test-admin-token",
            ALLOW_INSECURE_WEBHOOKS: "true",
            ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
            WEBHOOK_SECRET_KEY: "test-webhook-secret-key-0123456789abcdef",
            // Webhook tests' hanging receiver gives up after this, not after 10 s.
            WEBHOOK_SEND_TIMEOUT_MS: "300",
          },
          // EMAIL as in wrangler.toml, plus a real binding that only mails
          // ops@docapi.test, so the outbox's failed-send path can be driven.
          email: { send_email: [{ name: "EMAIL" }, { name: "EMAIL_ONLY_OPS", allowed_destination_addresses: ["ops@docapi.test"] }] },
          // The shared corpus for tests (test/support/corpus.ts), served from Node on demand.
          // The Chromium-printed layout corpus (test/support/layout-corpus), printed on first request.
          serviceBindings: { CORPUS: corpusService, LAYOUT_CORPUS: layoutCorpusService },
          workers: [{ name: "docapi-ocr", modules: ocrModules, compatibilityDate: "2026-11-01", compatibilityFlags: ["nodejs_compat"] }],
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      // Vitest leaves one core free by default; use them all.
      maxWorkers: availableParallelism(),
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // A fresh isolate loads the whole Worker, 27 MB of WASM included, in
      // about 25 s (the pool hands each module over as JSON), so most files
      // share their isolate with the files before them. Files that measure
      // the isolate itself (WASM heaps and peaks, engine instances) or
      // replace its fetch get one of their own.
      // scripts/test-unit.mjs runs both groups, one after the other.
      ...(process.env.TEST_GROUP === "own-isolate" ? { include: OWN_ISOLATE, isolate: true } : { include: TESTS, exclude: OWN_ISOLATE, isolate: false }),
    },
  };
});
