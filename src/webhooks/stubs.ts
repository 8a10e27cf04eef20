import type { Env } from "../env";

/** The WebhookEndpoint Durable Object of one endpoint (named by the endpoint id). */
export function endpointStub(env: Env, endpointId: string) {
  return env.WEBHOOK_ENDPOINT.get(env.WEBHOOK_ENDPOINT.idFromName(endpointId));
}
