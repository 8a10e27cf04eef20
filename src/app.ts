import { Hono } from "hono";
import { sessionRenewal } from "./auth/session-renewal";
import { ApiError, problemResponse } from "./errors";
import type { AppEnv } from "./http/context";
import { idempotent } from "./http/idempotency";
import { mcpEndpoint } from "./mcp/endpoint";
import { MCP_PATH } from "./mcp/openapi";
import { toolScope } from "./tools/idempotency-scope";
import { mountRoutes } from "./http/route-mount";
import { devMailbox } from "./routes/dev-mailbox";
import { ROUTES } from "./routes/registry";
import { settingsOf } from "./settings";
import { toolRoute } from "./tools/pipeline";
import { TOOLS } from "./tools/registry";

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

  // The console's session cookie: sliding renewal, and cleared once dead (auth/session-renewal.ts).
  app.use("*", sessionRenewal);
  // GET /dev/mailbox, only with DEV_MAILBOX=true (routes/dev-mailbox.ts).
  app.use("/dev/*", devMailbox);

  app.onError((err, c) => problemResponse(c, err));
  app.notFound((c) => problemResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)));

  // Tools (tools/registry.ts) and every other route (routes/registry.ts) are
  // declarations; routing, validation and /openapi.json derive from them.
  for (const tool of TOOLS) app.on(tool.method.toUpperCase(), tool.path, idempotent(toolScope(tool)), toolRoute(tool));
  mountRoutes(app, ROUTES);
  // The MCP endpoint calls tools through this very app, so each call takes the tool's HTTP route (mcp/tool-call.ts).
  // POST is the documented operation; every other method reaches the same handler for its 405.
  const mcp = mcpEndpoint((c, inner) => Promise.resolve(app.fetch(inner, c.env, c.executionCtx)));
  app.post(MCP_PATH, mcp);
  app.all(MCP_PATH, mcp);
  return app;
}
