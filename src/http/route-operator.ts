import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import { constantTimeEqual } from "../secrets/encoding";
import { settingsOf } from "../settings";
import type { AppEnv } from "./context";

/**
 * The operator API's credential (docs/reference/accounts-and-keys.md, Operator API): Authorization: Bearer
 * ADMIN_TOKEN, compared in constant time. A deployment without ADMIN_TOKEN
 * answers 404, so it does not reveal that the operator API exists.
 */
export const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = settingsOf(c.env).ADMIN_TOKEN;
  if (!token) throw new ApiError("not_found", "Not found.");
  const given = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  if (!constantTimeEqual(given, token)) throw new ApiError("unauthorized", "The operator token is missing or wrong.");
  await next();
};
