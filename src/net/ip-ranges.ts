// Address classes a webhook may never reach (docs/reference/webhooks.md, SSRF policy: private,
// loopback, link-local, CGNAT, multicast, reserved, IPv4-mapped IPv6 and
// metadata addresses). Pure: strings in, a class out. Sources: the IANA
// IPv4/IPv6 special-purpose address registries and cloud providers'
// documented metadata addresses.

export type AddressClass = "loopback" | "private" | "link_local" | "cgnat" | "multicast" | "reserved" | "ipv4_mapped" | "metadata";

export type Classification = { kind: "public" } | { kind: "blocked"; class: AddressClass };

/** Instance-metadata services: refused before any range check, whatever the flags. */
const METADATA_V4 = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean
  "169.254.170.2", // AWS ECS task metadata
  "168.63.129.16", // Azure wire server (a public-range address)
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
]);
const METADATA_V6 = ["fd00:ec2::254"]; // AWS IMDS over IPv6

const V4_RANGES: [string, number, AddressClass][] = [
  ["0.0.0.0", 8, "reserved"], // "this network"
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // future use and broadcast
];

const V6_RANGES: [string, number, AddressClass][] = [
  ["::ffff:0:0", 96, "ipv4_mapped"],
  ["::1", 128, "loopback"],
  ["::", 128, "reserved"], // unspecified
  ["::", 96, "reserved"], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96, "reserved"], // NAT64: could reach private IPv4 through a translator
  ["64:ff9b:1::", 48, "reserved"],
  ["100::", 64, "reserved"], // discard-only
  ["2001::", 23, "reserved"], // IETF protocol assignments, incl. Teredo
  ["2001:db8::", 32, "reserved"], // documentation
  ["2002::", 16, "reserved"], // 6to4 embeds an IPv4 address
  ["3fff::", 20, "reserved"], // documentation (RFC 9637)
  ["fc00::", 7, "private"], // unique local
  ["fec0::", 10, "private"], // site-local (deprecated)
  ["fe80::", 10, "link_local"],
  ["ff00::", 8, "multicast"],
];

export function parseIPv4(s: string): number | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

/** 128-bit value of an IPv6 literal (no brackets, no zone id), or null. */
export function parseIPv6(input: string): bigint | null {
  const s = input.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(s)) return null;
  let body = s;
  let tail: number[] = [];
  if (s.includes(".")) {
    // A trailing dotted quad stands for the last two 16-bit groups.
    const cut = s.lastIndexOf(":");
    const v4 = parseIPv4(s.slice(cut + 1));
    if (v4 === null) return null;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    body = s.slice(0, cut + 1);
    if (!body.endsWith("::")) body = body.slice(0, -1);
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const words = [...head.map((g) => parseInt(g, 16)), ...new Array<number>(8 - given).fill(0), ...rest.map((g) => parseInt(g, 16)), ...tail];
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

function inV4(addr: number, base: string, bits: number): boolean {
  const b = parseIPv4(base)!;
  const shift = 32 - bits;
  return Math.floor(addr / 2 ** shift) === Math.floor(b / 2 ** shift);
}

function inV6(addr: bigint, base: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return addr >> shift === parseIPv6(base)! >> shift;
}

export function classifyIPv4(ip: string): Classification | null {
  const n = parseIPv4(ip);
  if (n === null) return null;
  if (METADATA_V4.has(ip)) return { kind: "blocked", class: "metadata" };
  for (const [base, bits, cls] of V4_RANGES) if (inV4(n, base, bits)) return { kind: "blocked", class: cls };
  return { kind: "public" };
}

export function classifyIPv6(ip: string): Classification | null {
  const n = parseIPv6(ip);
  if (n === null) return null;
  if (METADATA_V6.some((m) => parseIPv6(m) === n)) return { kind: "blocked", class: "metadata" };
  for (const [base, bits, cls] of V6_RANGES) if (inV6(n, base, bits)) return { kind: "blocked", class: cls };
  // Only 2000::/3 is global unicast; everything else is unassigned or special.
  if (!inV6(n, "2000::", 3)) return { kind: "blocked", class: "reserved" };
  return { kind: "public" };
}

/** Classifies an IPv4 or IPv6 literal (brackets allowed); null when `ip` is not an address. */
export function classifyAddress(ip: string): Classification | null {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  return classifyIPv4(bare) ?? classifyIPv6(bare);
}
