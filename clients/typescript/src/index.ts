// The typed client of the Document Processing API: openapi-fetch over the
// types openapi-typescript generated from /openapi.json (schema.d.ts). Every
// path, parameter, body and answer is checked by the compiler; the runtime is
// a thin wrapper over fetch. The console (/console) uses this file for every
// call it makes.
import createFetchClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, operations, paths } from "./schema";
export type DocApiClient = Client<paths>;

/** How the client authenticates; state-changing calls made with a session carry its CSRF token. */
export type ClientAuth =
  /** An API key (dt_live_...), sent as X-API-Key: tool calls, GET /api/v1/account, jobs. */
  | { apiKey: string }
  /** A dashboard JWT, sent as Authorization: Bearer: keys, webhooks, team. */
  | { bearer: string }
  /**
   * The console's cookie session (__Host-session, sent by the browser itself).
   * `csrfToken` answers the token POST/GET /api/v1/auth/session gave; it goes
   * out as X-CSRF-Token on every POST, PATCH, PUT and DELETE.
   */
  | { session: { csrfToken: () => string | null | undefined } }
  /** No credentials: public routes and anonymous tool calls. */
  | { anonymous: true };

export interface CreateClientOptions extends Omit<ClientOptions, "baseUrl" | "credentials"> {
  /** The API's origin, e.g. "https://api.example.com"; "" (the default) means this page's origin in a browser. */
  baseUrl?: string;
  auth: ClientAuth;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function authMiddleware(auth: ClientAuth): Middleware {
  return {
    onRequest({ request }) {
      if ("apiKey" in auth) request.headers.set("X-API-Key", auth.apiKey);
      else if ("bearer" in auth) request.headers.set("Authorization", `Bearer ${auth.bearer}`);
      else if ("session" in auth && STATE_CHANGING.has(request.method)) {
        const token = auth.session.csrfToken();
        if (token) request.headers.set("X-CSRF-Token", token);
      }
      return request;
    },
  };
}

/**
 * A client for one set of credentials.
 *
 *   const api = createClient({ baseUrl: "https://api.example.com", auth: { apiKey: process.env.DOCAPI_KEY! } });
 *   const { data, error } = await api.GET("/api/v1/account");
 */
export function createClient(options: CreateClientOptions): DocApiClient {
  const { auth, baseUrl = "", ...rest } = options;
  // A session lives in a cookie that only same-origin requests carry.
  // `credentials` is a browser RequestInit field (Workers' types lack it and
  // workerd refuses some values), so it is set for the session preset only.
  const init = "session" in auth ? { ...rest, baseUrl, credentials: "same-origin" } : { ...rest, baseUrl };
  const client = createFetchClient<paths>(init as ClientOptions);
  client.use(authMiddleware(auth));
  return client;
}

/** The problem+json body every error answer carries (docs/reference/errors.md). */
export type Problem = components["schemas"]["Problem"];

/** True when a value is a problem body: `if (isProblem(error)) switch (error.code) ...`. */
export function isProblem(value: unknown): value is Problem {
  return !!value && typeof value === "object" && typeof (value as Problem).code === "string" && typeof (value as Problem).status === "number";
}
