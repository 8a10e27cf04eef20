import { describe, expect, it } from "vitest";
import { clientNetwork } from "../../src/auth/client-network";
import { call, postJson, problem } from "../support/http";

// Issue #31, item 7: anonymous calls are limited per client network (20 a
// minute; docs/reference/accounts-and-keys.md, Credentials). One IPv6 subscriber holds a whole /64, so
// IPv6 addresses count by /64; every spelling of an address counts as one.

const SINGLE = "/api/v1/compression/single";
/** An anonymous tool call that is refused cheaply (422) after the rate limit, or 429 by it. */
const anonymousCall = (ip: string) => call(SINGLE, { method: "POST", ip, headers: { "Content-Type": "application/json" }, body: "{}" });

const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
/** A random /64 under the documentation prefix 2001:db8::/32. */
const randomPrefix = () => `2001:db8:${hex()}:${hex()}`;

describe("clientNetwork", () => {
  it("keys IPv6 by /64 whatever the spelling, IPv4-mapped IPv6 as IPv4, IPv4 by address", () => {
    const key = "2001:db8:0:12::/64";
    for (const spelling of [
      "2001:db8:0:12::1",
      "2001:0db8:0000:0012:0000:0000:0000:0001",
      "2001:DB8:0:12:ffff:ffff:ffff:ffff",
      "2001:db8::12:1:2:3:4",
      "[2001:db8:0:12::abcd]",
      "2001:db8:0:12::9%eth0",
    ]) {
      expect(clientNetwork(spelling), spelling).toBe(key);
    }
    expect(clientNetwork("2001:db8:0:13::1")).toBe("2001:db8:0:13::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
    expect(clientNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientNetwork("0:0:0:0:0:ffff:cb00:7109")).toBe("203.0.113.9");
    expect(clientNetwork(" 203.0.113.9 ")).toBe("203.0.113.9");
    // Not an address: counted as given, never merged with a real one.
    expect(clientNetwork("unknown")).toBe("unknown");
    expect(clientNetwork("2001:db8::1::2")).toBe("2001:db8::1::2");
    expect(clientNetwork("203.0.113.300")).toBe("203.0.113.300");
  });
});

describe("anonymous rate limit by network", () => {
  it("21 calls from 21 addresses of one /64 (in any spelling): the 21st is 429; another /64 is not affected", async () => {
    const prefix = randomPrefix();
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) {
      // Alternate compressed and fully expanded spellings of distinct addresses.
      const ip =
        i % 2
          ? `${prefix}::${i.toString(16)}`
          : `${prefix
              .split(":")
              .map((g) => g.padStart(4, "0"))
              .join(":")}:0000:0000:${i.toString(16).padStart(4, "0")}:0001`.toUpperCase();
      statuses.push((await anonymousCall(ip)).status);
    }
    expect(statuses.slice(0, 20)).toEqual(new Array(20).fill(422));
    expect(statuses[20]).toBe(429);
    const limited = await anonymousCall(`${prefix}::ffff`);
    expect((await problem(limited)).code).toBe("rate_limited");
    expect(limited.headers.get("Retry-After")).toBe("60");

    // Neighbouring /64s are other clients.
    const [a, b, c, d] = prefix.split(":");
    const neighbour = `${a}:${b}:${c}:${(Number.parseInt(d, 16) ^ 1).toString(16)}::1`;
    expect((await anonymousCall(neighbour)).status).toBe(422);
    expect((await anonymousCall(`${randomPrefix()}::1`)).status).toBe(422);
  });

  it("an IPv4 client seen as IPv4-mapped IPv6 is the same client", async () => {
    const v4 = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < 10; i++) expect((await anonymousCall(v4)).status).toBe(422);
    for (let i = 0; i < 10; i++) expect((await anonymousCall(`::ffff:${v4}`)).status).toBe(422);
    expect((await anonymousCall(`::FFFF:${v4}`)).status).toBe(429);
  });

  it("sign-in link requests are limited per /64 too", async () => {
    const prefix = randomPrefix();
    let limited = false;
    for (let i = 1; i <= 25 && !limited; i++) {
      const res = await postJson("/api/v1/auth/magic-link", { email: "nobody@example.test" }, { "CF-Connecting-IP": `${prefix}::${i.toString(16)}` });
      if (res.status === 429) limited = true;
      else expect(res.status).toBe(202);
    }
    expect(limited, "no 429 within 25 requests from one /64").toBe(true);
  });
});
