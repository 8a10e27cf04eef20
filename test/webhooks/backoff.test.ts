import { describe, expect, it } from "vitest";
import {
  AUTO_DISABLE_AFTER,
  LAST_ATTEMPT_LEASE_MS,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  SEND_TIMEOUT_MS,
  afterFailure,
  isSuccess,
  recheckAt,
} from "../../src/webhooks/backoff";

const MIN = 60_000;
const H = 60 * MIN;

describe("retry policy (docs/reference/webhooks.md, Delivery)", () => {
  it("is 7 attempts with 1m, 5m, 30m, 2h, 5h, 12h between them", () => {
    expect(MAX_ATTEMPTS).toBe(7);
    expect(RETRY_DELAYS_MS).toEqual([MIN, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 12 * H]);
  });

  it("schedules each retry from the start of the failed attempt, then gives up", () => {
    const t0 = 1_700_000_000_000;
    const walk: number[] = [];
    let at = t0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const next = afterFailure(attempt, at);
      if (next.kind === "dead") {
        expect(attempt).toBe(7);
        break;
      }
      walk.push(next.at - at);
      at = next.at;
    }
    expect(walk).toEqual([MIN, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 12 * H]);
    expect(at - t0).toBe(19 * H + 36 * MIN); // the whole schedule spans 19 h 36 min
  });

  it("leases the last attempt briefly, longer than the send timeout", () => {
    expect(recheckAt(7, 1000)).toBe(1000 + LAST_ATTEMPT_LEASE_MS);
    expect(LAST_ATTEMPT_LEASE_MS).toBeGreaterThan(SEND_TIMEOUT_MS);
    expect(recheckAt(1, 1000)).toBe(1000 + MIN);
    expect(() => recheckAt(0, 1000)).toThrow(RangeError);
  });

  it("counts only 2xx as success; the send timeout is 10 s; 15 failures disable", () => {
    expect([200, 201, 204, 299].every(isSuccess)).toBe(true);
    expect([199, 300, 301, 302, 400, 404, 500, 503].some(isSuccess)).toBe(false);
    expect(SEND_TIMEOUT_MS).toBe(10_000);
    expect(AUTO_DISABLE_AFTER).toBe(15);
  });
});
