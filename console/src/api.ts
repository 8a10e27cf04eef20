// The console's one client: the generated, typed client (clients/typescript)
// over the cookie session. The session cookie is HttpOnly, so the page never
// sees it; the CSRF token the session answer carries is kept in memory and
// sent on every state-changing call by the client itself.
import { createClient, isProblem } from "../../clients/typescript/src/index";

export interface Session {
  user: { id: string; email: string; role: "owner" | "admin" | "member" };
  account: { id: string; name: string; plan: string };
  csrf_token: string;
  expires_at: string;
}

let csrf: string | null = null;
export let session: Session | null = null;

export const api = createClient({ auth: { session: { csrfToken: () => csrf } } });

// A session that ends while a page is open (idle timeout, sign-out in another
// tab) answers 401: go to the sign-in page, and come back here afterwards.
api.use({
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && session && !path.startsWith("/api/v1/auth/")) {
      setSession(null);
      location.assign(`/console/sign-in?next=${encodeURIComponent(location.pathname)}`);
    }
    return response;
  },
});

export function setSession(s: Session | null): void {
  session = s;
  csrf = s?.csrf_token ?? null;
}

/** A message a person can act on, from a problem+json body or a network failure. */
export function problemText(error: unknown, fallback = "The request failed."): string {
  if (isProblem(error)) {
    const fields = error.errors?.map((e) => `${e.field}: ${e.message}`).join("; ");
    return `${error.detail || error.title}${fields ? ` (${fields})` : ""} [${error.code}]`;
  }
  if (error instanceof Error) return `${fallback} ${error.message}`;
  return fallback;
}

/** Whether the signed-in role may manage the team or webhooks (src/auth/principal.ts: owner and admin). */
export const canManage = (): boolean => session?.user.role === "owner" || session?.user.role === "admin";
