import type { z } from "zod";
import type { AuthenticatedPrincipal, KeyPermission, Principal } from "../auth/principal";
import type { ErrorCode } from "../errors";
import type { AppContext } from "./context";

// One declaration per non-tool route, as defineTool is for tools: method,
// path, who may call it, the zod schemas of its parameters, query and body,
// its answers and the problem codes it can give. Routing (route-mount.ts),
// validation and the OpenAPI operation (route-openapi.ts) all read it, so the
// document cannot say something the runtime does not do.

/**
 * Who may call a route:
 * - `public`: anyone, no credentials read.
 * - `jwt`: a dashboard user (Authorization: Bearer <JWT>); an API key is 403.
 * - `jwt:<permission>`: a dashboard user whose role has the team permission.
 * - `key-or-jwt:<permission>`: a dashboard user, or an API key with that key permission.
 * - `admin`: the operator token (ADMIN_TOKEN); the route answers 404 when it is unset.
 */
export type RouteAuth = "public" | "jwt" | `jwt:${TeamPermission}` | `key-or-jwt:${KeyPermission}` | "admin";
export type TeamPermission = "manage_webhooks" | "manage_team";

export type UserPrincipal = Extract<Principal, { kind: "user" }>;
/** What the handler is given as `caller` for each auth class. */
export type CallerOf<A extends RouteAuth> = A extends "public" | "admin" ? null : A extends `key-or-jwt:${string}` ? AuthenticatedPrincipal : UserPrincipal;

export interface RouteResponse {
  description: string;
  /** The JSON body (application/json unless `media` says otherwise); absent for an empty body. */
  schema?: z.ZodType;
  /** Another media type than JSON: the body is described as bytes or text of that type. */
  media?: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<A extends RouteAuth, P, Q, B> {
  caller: CallerOf<A>;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export interface RouteDef<
  A extends RouteAuth = RouteAuth,
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
> {
  /** camelCase, unique: the OpenAPI operationId and the method name of a generated client. */
  id: string;
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI form: /api/v1/keys/{keyId}. */
  path: string;
  /** Hono's pattern when it cannot be derived from `path` (a parameter that spans segments). */
  honoPath?: string;
  /** Other spellings routed to the same handler and not documented (the webhooks collection's trailing slash, docs/reference/webhooks.md). */
  aliases?: string[];
  /** Spellings answered with a 301 to `path`, not documented: a page people type with a trailing slash, whose relative links need the canonical URL. */
  redirectsFrom?: string[];
  tags: string[];
  summary: string;
  description?: string;
  auth: A;
  params?: P;
  query?: Q;
  /** A JSON body. */
  body?: B;
  /** The body may be left out entirely (no Content-Length); its schema then parses `{}`. */
  bodyOptional?: boolean;
  /** Takes an Idempotency-Key (POSTs that charge or create). */
  idempotent?: boolean;
  responses: Record<number, RouteResponse>;
  /** Codes the handler itself throws; those of auth, validation and idempotency are added from the declaration. */
  problems?: ErrorCode[];
  handler: (c: AppContext, input: RouteInput<A, P, Q, B>) => Response | Promise<Response>;
}

export type AnyRoute = RouteDef<RouteAuth, Schema | undefined, Schema | undefined, Schema | undefined>;

export function defineRoute<
  A extends RouteAuth,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(def: RouteDef<A, P, Q, B>): AnyRoute {
  return def as unknown as AnyRoute;
}

/** The Hono pattern of a route: {name} becomes :name. */
export function honoPathOf(route: Pick<AnyRoute, "path" | "honoPath">): string {
  return route.honoPath ?? route.path.replace(/\{([^}]+)\}/g, ":$1");
}

/** Which document a route belongs to: the operator API has its own. */
export const isOperatorRoute = (route: AnyRoute): boolean => route.auth === "admin";
