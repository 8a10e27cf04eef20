import { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** Team members and invitations (decisions.md, Account and team). */
export const teamApi = new Hono<AppEnv>();
