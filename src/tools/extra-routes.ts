import { Hono } from "hono";
import type { AppEnv } from "../http/context";

/**
 * Public helper routes that belong to tools but are not tool calls (they run
 * no engine and charge nothing), such as GET /api/v1/redact/entity-types.
 */
export const extraToolRoutes = new Hono<AppEnv>();
