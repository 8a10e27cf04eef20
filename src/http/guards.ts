import type { AuthenticatedPrincipal, KeyPermission, Principal } from "../auth/principal";
import { roleHas } from "../auth/principal";
import { ApiError } from "../errors";

/** Dashboard endpoints (keys, team, webhooks): a JWT, never an API key. */
export function requireUser(p: Principal): Extract<Principal, { kind: "user" }> {
  if (p.kind === "user") return p;
  if (p.kind === "key") throw new ApiError("forbidden", "This endpoint takes a dashboard token (Authorization: Bearer), not an API key.");
  throw new ApiError("unauthorized", "A dashboard token is required (Authorization: Bearer <JWT>, or the console's session cookie).");
}

export function requireTeamPermission(p: Principal, permission: "manage_webhooks" | "manage_team") {
  const user = requireUser(p);
  if (!roleHas(user.role, permission)) throw new ApiError("permission_denied", `Your role lacks the '${permission}' permission.`);
  return user;
}

/** Read endpoints that API keys may use too, given the key permission. */
export function requireCaller(p: Principal, keyPermission: KeyPermission): AuthenticatedPrincipal {
  if (p.kind === "anonymous") throw new ApiError("unauthorized", "Credentials are required.");
  if (p.kind === "key" && !p.permissions.includes(keyPermission)) {
    throw new ApiError("permission_denied", `This key lacks the '${keyPermission}' permission.`);
  }
  return p;
}
