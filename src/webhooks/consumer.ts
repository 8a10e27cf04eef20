import type { Env } from "../env";
import { attemptDelivery, runResolver } from "./attempt";
import { deliveryMessageSchema, type DeliveryMessage } from "./messages";
import { loadSendTargets, type SendTarget } from "./store";
import { endpointStub } from "./stubs";

// Queue consumer: makes the first attempt of each delivery. Per message:
// begin (the endpoint's Durable Object records the delivery and claims the
// attempt), send, finish (the object records the outcome and owns any retry),
// ack. A message is retried by the queue only while its delivery has not yet
// been claimed; once claimed, only the object's alarm retries it, so the two
// never retry the same delivery. A repeated message finds it claimed and is
// acknowledged without sending.

export interface ConsumerDeps {
  loadTargets: (env: Env, ids: string[]) => Promise<Map<string, SendTarget>>;
}

const defaultDeps: ConsumerDeps = { loadTargets: loadSendTargets };

/** Back-off of the queue's own retries (the object was unreachable), in seconds. */
export function queueRetryDelay(messageAttempts: number): number {
  return Math.min(10 * 2 ** Math.max(0, messageAttempts - 1), 3600);
}

export async function handleWebhookBatch(batch: MessageBatch<unknown>, env: Env, deps: ConsumerDeps = defaultDeps): Promise<void> {
  const valid: { msg: Message<unknown>; body: DeliveryMessage }[] = [];
  for (const msg of batch.messages) {
    const parsed = deliveryMessageSchema.safeParse(msg.body);
    if (parsed.success) valid.push({ msg, body: parsed.data });
    else {
      console.error("webhooks: dropping a malformed queue message", msg.id, parsed.error.issues[0]);
      msg.ack();
    }
  }
  if (valid.length === 0) return;

  let targets: Map<string, SendTarget>;
  try {
    targets = await deps.loadTargets(
      env,
      valid.map((v) => v.body.endpoint_id),
    );
  } catch (err) {
    console.error("webhooks: could not load endpoints; the batch will be retried", err);
    for (const { msg } of valid) msg.retry({ delaySeconds: queueRetryDelay(msg.attempts) });
    return;
  }

  const resolve = runResolver();
  await Promise.all(
    valid.map(async ({ msg, body }) => {
      try {
        const target = targets.get(body.endpoint_id);
        if (target) await deliverFirst(env, target, body, resolve);
        // No target: the endpoint was deleted, and its deliveries with it.
        msg.ack();
      } catch (err) {
        console.error("webhooks: delivery step failed; message will be retried", body.delivery_id, err);
        msg.retry({ delaySeconds: queueRetryDelay(msg.attempts) });
      }
    }),
  );
}

async function deliverFirst(env: Env, target: SendTarget, m: DeliveryMessage, resolve: ReturnType<typeof runResolver>): Promise<void> {
  const stub = endpointStub(env, target.id);
  const claim = await stub.begin(m, target.active);
  if (!claim.go) return;
  const outcome = await attemptDelivery(env, target, m, resolve);
  await stub.finish(m.delivery_id, m.round, claim.attempt, outcome);
}
