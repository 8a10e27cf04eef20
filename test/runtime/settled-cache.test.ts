import { describe, expect, it } from "vitest";
import { settledCache } from "../../src/runtime/settled-cache";

describe("settledCache: only finished values are shared", () => {
  it("a lookup never waits on another lookup's computation that never finishes", async () => {
    const cache = settledCache<string>();
    // The first request's computation never settles (its request was cancelled).
    void cache("k", () => new Promise<string>(() => undefined));
    const second = await Promise.race([cache("k", async () => "own"), new Promise((r) => setTimeout(() => r("waited"), 200))]);
    expect(second).toBe("own");
  });

  it("keeps the first value computed and serves it without computing again", async () => {
    const cache = settledCache<number>();
    let runs = 0;
    const make = async () => ++runs;
    expect(await cache("k", make)).toBe(1);
    expect(await cache("k", make)).toBe(1);
    expect(runs).toBe(1);
  });

  it("a failed computation is not kept", async () => {
    const cache = settledCache<number>();
    await expect(cache("k", async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await cache("k", async () => 7)).toBe(7);
  });
});
