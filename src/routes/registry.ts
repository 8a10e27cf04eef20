import { ACCOUNT_ROUTES } from "../api/account";
import { ADMIN_ROUTES } from "../api/admin";
import { CONSOLE_ROUTES } from "../console/routes";
import { AUTH_ROUTES } from "../api/auth";
import { KEY_ROUTES } from "../api/keys";
import { TEAM_ROUTES } from "../api/team";
import { USAGE_ROUTES } from "../api/usage";
import type { AnyRoute } from "../http/route";
import { JOB_ROUTES } from "../jobs/api";
import { FILE_ROUTES } from "../storage/files-route";
import { EXTRA_TOOL_ROUTES } from "../tools/extra-routes";
import { DELIVERY_ROUTES } from "../webhooks/deliveries-api";
import { WEBHOOK_ROUTES } from "../webhooks/api";
import { REFERENCE_ROUTES } from "./reference";

/**
 * Every route that is not a tool call (tools are in tools/registry.ts).
 * Routing (http/route-mount.ts) and both OpenAPI documents (routes/openapi.ts)
 * read this list; test/openapi checks that it and the app agree.
 */
export const ROUTES: readonly AnyRoute[] = [
  ...REFERENCE_ROUTES,
  ...CONSOLE_ROUTES,
  ...FILE_ROUTES,
  ...EXTRA_TOOL_ROUTES,
  ...KEY_ROUTES,
  ...ACCOUNT_ROUTES,
  ...USAGE_ROUTES,
  ...AUTH_ROUTES,
  ...JOB_ROUTES,
  ...TEAM_ROUTES,
  ...WEBHOOK_ROUTES,
  ...DELIVERY_ROUTES,
  ...ADMIN_ROUTES,
];
