import { rateKey, type Principal } from "../auth/principal";
import type { Env } from "../env";
import { ApiError } from "../errors";

// Workers Rate Limiting bindings count per 60 s window (wrangler.toml); the
// binding does not say when the window resets, so Retry-After is the period.
const PERIOD_SECONDS = 60;

export async function enforceRateLimit(env: Env, p: Principal): Promise<void> {
  const limiter = p.kind === "anonymous" ? env.ANON_LIMITER : env.AUTH_LIMITER;
  const { success } = await limiter.limit({ key: rateKey(p) });
  if (!success) {
    throw new ApiError("rate_limited", "Too many requests; retry after the period given in Retry-After.", {
      headers: { "Retry-After": String(PERIOD_SECONDS) },
    });
  }
}
