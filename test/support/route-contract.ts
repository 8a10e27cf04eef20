import { KEY_PERMISSIONS, type KeyPermission } from "../../src/auth/principal";
import type { AnyRoute, RouteAuth, TeamPermission } from "../../src/http/route";
import { call, type AuthHeaders } from "./http";

// What test/platform/route-contract.test.ts needs to read a route's
// declaration: its auth class as a closed union, and a request built from
// its method, path and parameters.

/** The auth classes the contract knows; a route declared with any other fails the suite. */
export type AuthClass =
  | { kind: "public" }
  | { kind: "jwt" }
  | { kind: "team"; permission: TeamPermission }
  | { kind: "key-or-jwt"; permission: KeyPermission }
  | { kind: "admin" };

// A Record over the union: a new team permission is a compile error here until the contract knows it.
const TEAM_PERMISSIONS: Record<TeamPermission, true> = { manage_webhooks: true, manage_team: true };

const isTeamPermission = (p: string): p is TeamPermission => Object.hasOwn(TEAM_PERMISSIONS, p);
const isKeyPermission = (p: string): p is KeyPermission => (KEY_PERMISSIONS as readonly string[]).includes(p);

export function authClassOf(auth: RouteAuth): AuthClass {
  if (auth === "public" || auth === "jwt" || auth === "admin") return { kind: auth };
  const [kind, permission = ""] = auth.split(":");
  if (kind === "jwt" && isTeamPermission(permission)) return { kind: "team", permission };
  if (kind === "key-or-jwt" && isKeyPermission(permission)) return { kind: "key-or-jwt", permission };
  throw new Error(`auth class '${auth}' has no contract in test/platform/route-contract.test.ts`);
}

/** The path's {name} parameters. */
export const paramNames = (route: AnyRoute): string[] => [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The route's path with every parameter filled; a parameter without a value is an error, not a silent hole. */
export function fillPath(route: AnyRoute, values: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${route.id}: no value for path parameter {${name}}`);
    return encodeURIComponent(v).replace(/%2F/g, "/");
  });
}

/** Calls the route as declared: its method, the filled path, and a JSON body when it takes one. */
export function callRoute(route: AnyRoute, path: string, auth: AuthHeaders, body: unknown = {}): Promise<Response> {
  const init: RequestInit = { method: route.method.toUpperCase(), headers: { ...auth } };
  if (route.body) {
    init.body = JSON.stringify(body);
    init.headers = { ...auth, "Content-Type": "application/json" };
  }
  return call(path, init);
}
