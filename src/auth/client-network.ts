// What the anonymous rate limit counts by: the client's network, not its
// exact address. One IPv6 subscriber is routinely given a whole /64 and can
// pick any of its 2^64 addresses per request, so IPv6 is keyed by /64;
// IPv4 by the address. Every spelling of one address (compressed,
// expanded, zero-padded, upper case, IPv4-mapped IPv6) gives the same key.

/** The rate-limit key of a client address, e.g. "198.51.100.7" or "2001:db8:0:1::/64". */
export function clientNetwork(raw: string): string {
  const address = raw.trim().toLowerCase();
  const v4 = parseIpv4(address);
  if (v4) return v4.join(".");
  const v6 = parseIpv6(address);
  if (!v6) return address;
  if (isIpv4Mapped(v6)) return [v6[6] >> 8, v6[6] & 0xff, v6[7] >> 8, v6[7] & 0xff].join(".");
  return `${v6
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(":")}::/64`;
}

function parseIpv4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address, or null. Brackets and a zone (%eth0) are dropped. */
function parseIpv6(s: string): number[] | null {
  const text = s.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const parts = half.split(":");
    for (const [i, p] of parts.entries()) {
      // A dotted IPv4 tail (::ffff:192.0.2.1) is the last two groups.
      if (i === parts.length - 1 && p.includes(".")) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/.test(p)) out.push(Number.parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one group of zeros.
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** ::ffff:a.b.c.d, an IPv4 client as a dual-stack socket reports it. */
const isIpv4Mapped = (g: number[]): boolean => g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
