import type { Env } from "../env";

/**
 * Records an event for an account's webhook subscribers. Until the webhook
 * issue lands there are no subscriptions to deliver to, so nothing is queued.
 */
export async function emitEvent(_env: Env, _accountId: string, _event: string, _data: Record<string, unknown>): Promise<void> {
  return;
}
