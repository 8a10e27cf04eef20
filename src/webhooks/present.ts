import { previousSecretLive, type EndpointRow } from "./store";

/** The endpoint record as the API shows it: never a secret, sealed or not. */
export function endpointView(row: EndpointRow, now: number = Date.now()) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    active: row.active,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt,
    consecutive_failures: row.consecutiveFailures,
    previous_secret_expires_at: previousSecretLive(row, now) ? row.previousSecretExpiresAt : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
