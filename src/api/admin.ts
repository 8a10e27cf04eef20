import { ADMIN_ACCOUNT_ROUTES } from "./admin/accounts";
import { ADMIN_BILLING_ROUTES } from "./admin/billing";
import { ADMIN_OUTBOX_ROUTES } from "./admin/outbox";
import { ADMIN_RUNTIME_ROUTES } from "./admin/runtime";

/**
 * The operator API (docs/reference/accounts-and-keys.md): bootstrap, support and tests, behind
 * ADMIN_TOKEN; every route answers 404 when it is unset, so an unconfigured
 * deployment does not reveal it. Documented at /admin/openapi.json.
 */
export const ADMIN_ROUTES = [...ADMIN_ACCOUNT_ROUTES, ...ADMIN_BILLING_ROUTES, ...ADMIN_OUTBOX_ROUTES, ...ADMIN_RUNTIME_ROUTES];
