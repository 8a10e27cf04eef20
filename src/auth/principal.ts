import type { PlanName } from "../config";
import { clientNetwork } from "./client-network";

export type Role = "owner" | "admin" | "member";
export type KeyPermission = "read" | "write" | "delete" | "admin";
export const KEY_PERMISSIONS: readonly KeyPermission[] = ["read", "write", "delete", "admin"];

/** Who is calling, resolved once per request by `identify`. */
export type Principal =
  | { kind: "anonymous"; ip: string }
  | {
      kind: "key";
      accountId: string;
      plan: PlanName;
      keyId: string;
      userId: string | null;
      scopes: string[];
      permissions: KeyPermission[];
      creditLimit: number | null;
    }
  | { kind: "user"; accountId: string; plan: PlanName; userId: string; role: Role; session?: SessionRef };

/** The console session behind a user's JWT (auth/sessions.ts), and how the JWT came. */
export interface SessionRef {
  id: string;
  via: "cookie" | "bearer";
  /** The JWT's iat and exp, in Unix seconds. */
  issuedAt: number;
  expiresAt: number;
}

export type AuthenticatedPrincipal = Exclude<Principal, { kind: "anonymous" }>;

/** Team permissions derive from the role (docs/reference/accounts-and-keys.md, Team). */
const ROLE_PERMISSIONS: Record<Role, readonly string[]> = {
  owner: ["manage_webhooks", "manage_team"],
  admin: ["manage_webhooks", "manage_team"],
  member: [],
};

export function roleHas(role: Role, permission: "manage_webhooks" | "manage_team"): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Key used by the rate limiter: per key, per user, or per client network (an IPv4 address, an IPv6 /64). */
export function rateKey(p: Principal): string {
  if (p.kind === "key") return `key:${p.keyId}`;
  if (p.kind === "user") return `user:${p.userId}`;
  return `ip:${clientNetwork(p.ip)}`;
}
