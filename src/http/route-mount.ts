import type { Hono, MiddlewareHandler } from "hono";
import type { KeyPermission } from "../auth/principal";
import { parseWith, readBody } from "./validate";
import type { AppContext, AppEnv } from "./context";
import { principalOf } from "./context";
import { requireCaller, requireTeamPermission, requireUser } from "./guards";
import { callerScope, idempotent, operatorScope } from "./idempotency";
import { requireOperator } from "./route-operator";
import { type AnyRoute, type TeamPermission, honoPathOf } from "./route";

// Turns route declarations into Hono routes. The order is the one every
// route had before declarations existed: the operator token, then the
// Idempotency-Key store, then the caller's credentials, then the parameters,
// query and body, then the handler.

export function mountRoutes(app: Hono<AppEnv>, routes: readonly AnyRoute[]): void {
  for (const route of routes) {
    const chain: MiddlewareHandler<AppEnv>[] = [];
    if (route.auth === "admin") chain.push(requireOperator);
    if (route.idempotent) chain.push(idempotent(route.auth === "admin" ? operatorScope : callerScope));
    chain.push(async (c) => run(route, c as AppContext));
    for (const path of [honoPathOf(route), ...(route.aliases ?? [])]) {
      app.on(route.method.toUpperCase(), path, ...(chain as [MiddlewareHandler<AppEnv>]));
    }
    for (const from of route.redirectsFrom ?? []) app.get(from, (c) => c.redirect(route.path, 301));
  }
}

async function run(route: AnyRoute, c: AppContext): Promise<Response> {
  const caller = await callerFor(route, c);
  const params = route.params ? parseWith(route.params, c.req.param()) : undefined;
  const query = route.query ? parseWith(route.query, c.req.query()) : undefined;
  const body = route.body ? parseWith(route.body, await jsonOf(route, c)) : undefined;
  return route.handler(c, { caller, params, query, body } as never);
}

async function callerFor(route: AnyRoute, c: AppContext) {
  const { auth } = route;
  if (auth === "public" || auth === "admin") return null;
  const principal = await principalOf(c);
  if (auth === "jwt") return requireUser(principal);
  const [kind, permission] = auth.split(":") as ["jwt" | "key-or-jwt", string];
  if (kind === "jwt") return requireTeamPermission(principal, permission as TeamPermission);
  return requireCaller(principal, permission as KeyPermission);
}

/** A declared-optional body may be left out (no Content-Length, or 0): the schema then parses `{}`. */
async function jsonOf(route: AnyRoute, c: AppContext): Promise<unknown> {
  if (route.bodyOptional && (c.req.header("Content-Length") ?? "0") === "0") return {};
  return readBody(c.req.raw, "json");
}
