import type { Env } from "../env";
import { classifyAddress, type AddressClass } from "./ip-ranges";
import { settingsOf } from "../settings";

// The SSRF policy for webhook targets (docs/reference/webhooks.md, SSRF policy), checked at
// create, at update and before every send. Pure apart from the injected
// resolver, so each rule is unit-tested without a network.

export interface TargetPolicy {
  /** ALLOW_INSECURE_WEBHOOKS=true: http:// targets are allowed (dev only). */
  allowInsecure: boolean;
  /** ALLOW_PRIVATE_WEBHOOK_TARGETS=true: loopback targets are allowed (dev and tests only). */
  allowLoopback: boolean;
}

/** Resolves a host name to its A and AAAA addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

export type RefusalReason = "invalid_url" | "scheme" | "credentials" | "port" | "host" | "address" | "unresolvable";

export class TargetRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly addressClass?: AddressClass,
  ) {
    super(message);
    this.name = "TargetRefused";
  }
}

export const MAX_URL_LENGTH = 2048;

/** Ports a target may name: the defaults, or unprivileged ones (no SSH, SMTP, ...). */
function portAllowed(port: string): boolean {
  if (port === "") return true;
  const n = Number(port);
  return n === 80 || n === 443 || (n >= 1024 && n <= 65535);
}

/** Names that never resolve publicly, or that name a metadata service. */
function hostNameClass(host: string): AddressClass | null {
  const h = host.replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return "loopback";
  if (["metadata", "metadata.google.internal", "instance-data", "metadata.azure.com"].includes(h)) return "metadata";
  if (!h.includes(".")) return "private";
  if ([".internal", ".local", ".localdomain", ".home.arpa", ".lan", ".intranet", ".corp"].some((s) => h.endsWith(s))) return "private";
  return null;
}

function refuseClass(cls: AddressClass, policy: TargetPolicy): boolean {
  return !(cls === "loopback" && policy.allowLoopback);
}

/** Scheme, credentials, port and host name: everything knowable without DNS. */
export function checkUrlShape(raw: string, policy: TargetPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw new TargetRefused("invalid_url", `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("invalid_url", "The URL is not valid.");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowInsecure)) {
    throw new TargetRefused("scheme", "The URL must use https.");
  }
  if (url.username || url.password) throw new TargetRefused("credentials", "The URL must not carry credentials.");
  if (!portAllowed(url.port)) throw new TargetRefused("port", `Port ${url.port} is not allowed; use 80, 443 or 1024-65535.`);
  // WHATWG parsing already turned 0x7f.1, 2130706433 and friends into dotted quads.
  const literal = classifyAddress(url.hostname);
  if (literal?.kind === "blocked" && refuseClass(literal.class, policy)) {
    throw new TargetRefused("address", `The address ${url.hostname} is ${describe(literal.class)}.`, literal.class);
  }
  if (!literal) {
    const cls = hostNameClass(url.hostname);
    if (cls && refuseClass(cls, policy)) throw new TargetRefused("host", `The host ${url.hostname} is ${describe(cls)}.`, cls);
  }
  return url;
}

/** The full check: shape, then every resolved address must be public. */
export async function checkTarget(raw: string, policy: TargetPolicy, resolve: Resolver): Promise<URL> {
  const url = checkUrlShape(raw, policy);
  if (classifyAddress(url.hostname) || hostNameClass(url.hostname)) return url; // an allowed literal or localhost
  let addresses: string[];
  try {
    addresses = await resolve(url.hostname);
  } catch (err) {
    throw new TargetRefused("unresolvable", `The host ${url.hostname} could not be resolved (${(err as Error).message}).`);
  }
  if (addresses.length === 0) throw new TargetRefused("unresolvable", `The host ${url.hostname} has no A or AAAA record.`);
  for (const addr of addresses) {
    const c = classifyAddress(addr);
    if (!c) throw new TargetRefused("unresolvable", `The host ${url.hostname} resolved to an unparsable address.`);
    // Any blocked address refuses the host: the runtime may connect to any of them.
    if (c.kind === "blocked" && refuseClass(c.class, policy)) {
      throw new TargetRefused("address", `The host ${url.hostname} resolves to ${addr}, which is ${describe(c.class)}.`, c.class);
    }
  }
  return url;
}

/** The dev switches of the environment (settings.ts parses them: only "true" or "false"). */
export function policyFromEnv(env: Env): TargetPolicy {
  const settings = settingsOf(env);
  return { allowInsecure: settings.ALLOW_INSECURE_WEBHOOKS, allowLoopback: settings.ALLOW_PRIVATE_WEBHOOK_TARGETS };
}

function describe(cls: AddressClass): string {
  const words: Record<AddressClass, string> = {
    loopback: "a loopback address",
    private: "a private address",
    link_local: "a link-local address",
    cgnat: "a carrier-grade NAT address",
    multicast: "a multicast address",
    reserved: "a reserved address",
    ipv4_mapped: "an IPv4-mapped IPv6 address",
    metadata: "a cloud metadata address",
  };
  return words[cls];
}
