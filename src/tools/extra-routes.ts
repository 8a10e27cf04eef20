import { Hono } from "hono";
import { ENTITY_TYPES } from "../engines/pii/entity-types";
import type { AppEnv } from "../http/context";

/**
 * Public helper routes that belong to tools but are not tool calls (they run
 * no engine and charge nothing), such as GET /api/v1/redact/entity-types.
 */
export const extraToolRoutes = new Hono<AppEnv>();

// api.md: public, no authentication, sorted alphabetically. The envelope is
// not shown there: { "entity_types": [...] }.
extraToolRoutes.get("/api/v1/redact/entity-types", (c) => {
  c.header("Cache-Control", "public, max-age=3600");
  return c.json({ entity_types: [...ENTITY_TYPES].sort() });
});
