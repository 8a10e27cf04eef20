import { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** Webhook endpoint management (api.md, Webhook management). */
export const webhooksApi = new Hono<AppEnv>();
