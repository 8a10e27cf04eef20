import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: "test-jwt-secret-0123456789abcdef",
            ADMIN_TOKEN: "test-admin-token",
            ALLOW_INSECURE_WEBHOOKS: "true",
            ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  };
});
