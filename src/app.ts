import { Hono } from "hono";
import { accountApi } from "./api/account";
import { adminApi } from "./api/admin";
import { keysApi } from "./api/keys";
import { teamApi } from "./api/team";
import { DOCS_HTML } from "./docs-page";
import { jobsApi } from "./jobs/api";
import { ApiError, problemResponse } from "./errors";
import type { AppEnv } from "./http/context";
import { accountScope, idempotent } from "./http/idempotency";
import { openApiDocument } from "./openapi";
import { settingsOf } from "./settings";
import { filesRoute } from "./storage/files-route";
import { toolRoute } from "./tools/pipeline";
import { TOOLS } from "./tools/registry";
import { extraToolRoutes } from "./tools/extra-routes";
import { webhooksApi } from "./webhooks/api";

export function buildApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // Request ids are always minted here: debits are idempotent on them, so a
  // client-chosen id could replay a charge.
  app.use("*", async (c, next) => {
    const id = crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.res.headers.set("X-Request-Id", id);
  });

  // A deployment with a missing or malformed setting answers 503 naming it
  // on every route but the index (settings.ts), instead of failing later.
  app.use("*", async (c, next) => {
    if (new URL(c.req.url).pathname !== "/") settingsOf(c.env);
    await next();
  });

  app.onError((err, c) => problemResponse(c, err));
  app.notFound((c) => problemResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)));

  app.get("/", (c) => c.json({ name: "Document Processing API", docs: "/docs", openapi: "/openapi.json" }));
  app.get("/openapi.json", (c) => c.json(openApiDocument(new URL(c.req.url).origin)));
  app.get("/docs", (c) => c.html(DOCS_HTML));
  app.route("/", filesRoute);

  for (const tool of TOOLS) app.on(tool.method.toUpperCase(), tool.path, idempotent(accountScope), toolRoute(tool));
  app.route("/", extraToolRoutes);

  app.route("/api/v1/keys", keysApi);
  app.route("/api/v1/account", accountApi);
  app.route("/api/v1/jobs", jobsApi);
  app.route("/api/v1/team", teamApi);
  app.route("/api/v1/webhooks", webhooksApi);
  app.route("/admin/v1", adminApi);
  return app;
}
