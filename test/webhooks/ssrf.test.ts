import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { classifyAddress, parseIPv6 } from "../../src/net/ip-ranges";
import { TargetRefused, checkTarget, checkUrlShape, policyFromEnv, type Resolver, type TargetPolicy } from "../../src/net/ssrf";

// The SSRF guard with the production policy (ALLOW_INSECURE_WEBHOOKS and
// ALLOW_PRIVATE_WEBHOOK_TARGETS both false): every address class refused,
// as a literal and behind a DNS name.

const STRICT: TargetPolicy = { allowInsecure: false, allowLoopback: false };
const noDns = vi.fn(async (): Promise<string[]> => {
  throw new Error("DNS must not be asked about an IP literal");
});

async function refusal(url: string, policy: TargetPolicy = STRICT, resolve: Resolver = noDns): Promise<TargetRefused> {
  try {
    await checkTarget(url, policy, resolve);
  } catch (err) {
    if (err instanceof TargetRefused) return err;
    throw err;
  }
  throw new Error(`${url} was accepted`);
}

const CLASSES: Record<string, string[]> = {
  loopback: ["127.0.0.1", "127.10.20.30", "[::1]", "localhost", "api.localhost", "0x7f.1", "2130706433", "0177.0.0.1"],
  private: ["10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "[fc00::1]", "[fd12:3456::1]", "[fec0::1]", "db", "printer.local", "svc.internal"],
  link_local: ["169.254.1.1", "[fe80::1]", "[febf::1]"],
  cgnat: ["100.64.0.1", "100.127.255.254"],
  multicast: ["224.0.0.1", "239.255.255.250", "[ff02::1]"],
  reserved: [
    "0.0.0.0",
    "0.1.2.3",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "198.18.0.1",
    "203.0.113.9",
    "[::]",
    "[2001:db8::1]",
    "[64:ff9b::a00:1]",
    "[2002:a00:1::]",
    "[2001::1]",
    "[4000::1]",
  ],
  ipv4_mapped: ["[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::ffff:8.8.8.8]", "[::ffff:a9fe:a9fe]"],
  metadata: ["169.254.169.254", "169.254.170.2", "168.63.129.16", "100.100.100.200", "192.0.0.192", "[fd00:ec2::254]", "metadata.google.internal", "metadata"],
};

describe("address classes refused (flags off)", () => {
  for (const [cls, hosts] of Object.entries(CLASSES)) {
    for (const host of hosts) {
      it(`${cls}: https://${host}/hook`, async () => {
        const err = await refusal(`https://${host}/hook`);
        expect(["address", "host"]).toContain(err.reason);
        expect(err.addressClass).toBe(cls);
      });
    }
  }

  it("the same classes are refused when a public-looking name resolves to them", async () => {
    for (const [cls, addr] of [
      ["private", "10.1.2.3"],
      ["loopback", "127.0.0.1"],
      ["link_local", "fe80::1"],
      ["cgnat", "100.64.1.1"],
      ["multicast", "ff05::2"],
      ["reserved", "240.1.1.1"],
      ["ipv4_mapped", "::ffff:7f00:1"],
      ["metadata", "169.254.169.254"],
    ] as const) {
      const err = await refusal("https://hooks.example.com/x", STRICT, async () => [addr]);
      expect(err.reason).toBe("address");
      expect(err.addressClass).toBe(cls);
    }
  });

  it("one bad address among good ones refuses the host (the runtime may pick any)", async () => {
    const err = await refusal("https://mixed.example.com/x", STRICT, async () => ["93.184.216.34", "2606:4700::1", "10.0.0.7"]);
    expect(err.addressClass).toBe("private");
  });
});

describe("what passes", () => {
  it("public literals, including the neighbours of blocked ranges", async () => {
    for (const host of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "11.0.0.1", "169.255.0.1", "[2606:4700:4700::1111]", "[2a00:1450::1]"]) {
      await expect(checkTarget(`https://${host}/hook`, STRICT, noDns)).resolves.toBeInstanceOf(URL);
    }
    expect(noDns).not.toHaveBeenCalled();
  });

  it("a name whose every address is public", async () => {
    const resolve = vi.fn(async () => ["93.184.216.34", "2606:2800:220:1::1"]);
    await expect(checkTarget("https://hooks.example.com:8443/in", STRICT, resolve)).resolves.toBeInstanceOf(URL);
    expect(resolve).toHaveBeenCalledWith("hooks.example.com");
  });
});

describe("scheme, credentials, port, DNS failures", () => {
  it("http only with ALLOW_INSECURE_WEBHOOKS; other schemes never", async () => {
    expect((await refusal("http://93.184.216.34/x")).reason).toBe("scheme");
    await expect(checkTarget("http://93.184.216.34/x", { ...STRICT, allowInsecure: true }, noDns)).resolves.toBeInstanceOf(URL);
    for (const u of ["ftp://93.184.216.34/x", "file:///etc/passwd", "gopher://93.184.216.34/", "javascript:alert(1)"]) {
      expect((await refusal(u, { allowInsecure: true, allowLoopback: true })).reason).toBe("scheme");
    }
  });

  it("credentials in the URL and privileged ports are refused", async () => {
    expect((await refusal("https://user:pw@93.184.216.34/x")).reason).toBe("credentials");
    for (const port of [22, 25, 110, 1023]) expect((await refusal(`https://93.184.216.34:${port}/x`)).reason).toBe("port");
    for (const port of [80, 443, 1024, 8080, 8443, 65535]) {
      await expect(checkTarget(`https://93.184.216.34:${port}/x`, STRICT, noDns)).resolves.toBeInstanceOf(URL);
    }
  });

  it("unparsable, over-long, unresolvable", async () => {
    expect((await refusal("not a url")).reason).toBe("invalid_url");
    expect((await refusal(`https://example.com/${"a".repeat(2100)}`)).reason).toBe("invalid_url");
    expect((await refusal("https://nx.example.com/", STRICT, async () => [])).reason).toBe("unresolvable");
    const broken = async (): Promise<string[]> => {
      throw new Error("SERVFAIL");
    };
    expect((await refusal("https://flaky.example.com/", STRICT, broken)).reason).toBe("unresolvable");
  });
});

describe("ALLOW_PRIVATE_WEBHOOK_TARGETS lets loopback through, and nothing else", () => {
  const devPolicy = policyFromEnv({ ...env, ALLOW_INSECURE_WEBHOOKS: "true", ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });

  it("loopback receivers are allowed", async () => {
    for (const u of ["http://127.0.0.1:8787/hook", "http://[::1]:9000/", "http://localhost:3000/"]) {
      await expect(checkTarget(u, devPolicy, noDns)).resolves.toBeInstanceOf(URL);
    }
  });

  it("private, metadata and mapped addresses stay refused", async () => {
    for (const host of ["10.0.0.1", "192.168.0.10", "169.254.169.254", "[::ffff:127.0.0.1]", "100.64.0.1"]) {
      await expect(checkTarget(`http://${host}/`, devPolicy, noDns)).rejects.toBeInstanceOf(TargetRefused);
    }
  });

  it('policyFromEnv is strict unless a switch is "true"; a switch that is neither true nor false is a configuration error (503)', () => {
    expect(policyFromEnv({ ...env, ALLOW_INSECURE_WEBHOOKS: undefined, ALLOW_PRIVATE_WEBHOOK_TARGETS: "false" })).toEqual(STRICT);
    expect(() => policyFromEnv({ ...env, ALLOW_INSECURE_WEBHOOKS: "1", ALLOW_PRIVATE_WEBHOOK_TARGETS: "yes" })).toThrow(
      expect.objectContaining({ code: "service_unavailable" }),
    );
  });
});

describe("address parsing", () => {
  it("embedded IPv4 notation equals its hex form", () => {
    expect(parseIPv6("::ffff:1.2.3.4")).toBe(parseIPv6("::ffff:102:304"));
    expect(parseIPv6("1:2:3:4:5:6:7.8.9.10")).toBe(parseIPv6("1:2:3:4:5:6:708:90a"));
    expect(parseIPv6("::")).toBe(0n);
    expect(parseIPv6("2001:db8::1")).toBe((0x20010db8n << 96n) | 1n);
  });

  it("rejects what is not an address", () => {
    for (const s of ["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "::g", "fe80::1%eth0", ":1", "1.2.3"]) expect(parseIPv6(s)).toBeNull();
    for (const s of ["256.1.1.1", "1.2.3", "example.com", ""]) expect(classifyAddress(s)).toBeNull();
  });

  it("shape check alone needs no resolver and returns the normalised URL", () => {
    expect(checkUrlShape("https://EXAMPLE.com:443/a?b=1", STRICT).toString()).toBe("https://example.com/a?b=1");
  });
});
