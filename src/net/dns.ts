import type { Resolver } from "./ssrf";

// Workers have no DNS API, so targets are resolved with DNS-over-HTTPS (JSON
// API). The fetcher is injectable: tests answer DoH queries themselves.

export const DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";
const DOH_TIMEOUT_MS = 3_000;
const TYPE_A = 1;
const TYPE_AAAA = 28;

interface DohAnswer {
  Status?: number;
  Answer?: { type: number; data: string }[];
}

type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

async function query(fetcher: Fetcher, endpoint: string, name: string, type: "A" | "AAAA"): Promise<string[]> {
  const url = `${endpoint}?name=${encodeURIComponent(name)}&type=${type}`;
  const res = await fetcher(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`DNS-over-HTTPS answered ${res.status}`);
  const body = (await res.json()) as DohAnswer;
  // NOERROR (0) and NXDOMAIN (3) are answers; SERVFAIL and the rest are errors.
  if (body.Status !== 0 && body.Status !== 3) throw new Error(`DNS status ${body.Status}`);
  const want = type === "A" ? TYPE_A : TYPE_AAAA;
  return (body.Answer ?? []).filter((a) => a.type === want).map((a) => a.data);
}

/** A and AAAA records of `hostname`, CNAMEs followed by the DoH server. */
export function dohResolver(fetcher: Fetcher = (i, init) => fetch(i, init), endpoint: string = DOH_ENDPOINT): Resolver {
  return async (hostname) => {
    const [a, aaaa] = await Promise.all([query(fetcher, endpoint, hostname, "A"), query(fetcher, endpoint, hostname, "AAAA")]);
    return [...a, ...aaaa];
  };
}

/**
 * Remembers answers for the life of one batch or alarm run only, so a batch
 * of deliveries to one host costs one lookup while every send still checks
 * fresh DNS.
 */
export function memoResolver(resolve: Resolver): Resolver {
  const seen = new Map<string, Promise<string[]>>();
  return (hostname) => {
    let p = seen.get(hostname);
    if (!p) {
      p = resolve(hostname);
      seen.set(hostname, p);
    }
    return p;
  };
}
