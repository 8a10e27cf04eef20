import type { Env } from "../../env";
import { settingsOf } from "../../settings";
import { dohResolver, memoResolver } from "../../net/dns";
import { checkTarget, type Resolver, TargetRefused } from "../../net/ssrf";

// What a page may load: the webhook SSRF guard's rules (no private,
// loopback, link-local, CGNAT, multicast, reserved or metadata address, in
// any spelling, nor a name that resolves to one), with http allowed as
// docs/tools/html-to-pdf.md says. The webhook dev switches are deliberately not read: only
// BROWSER_DEV_ALLOWED_ORIGINS, a list of exact loopback origins for a local
// page server, opens anything, and settings.ts refuses non-loopback entries.

export interface UrlPolicy {
  devOrigins: ReadonlySet<string>;
  resolve: Resolver;
}

const POLICY = { allowInsecure: true, allowLoopback: false } as const;

/** One policy per render: DNS answers are remembered for that render only. */
export function urlPolicy(env: Env): UrlPolicy {
  return { devOrigins: new Set(settingsOf(env).BROWSER_DEV_ALLOWED_ORIGINS), resolve: memoResolver(dohResolver()) };
}

/** Null when the page may load `raw`; otherwise why not. */
export async function refusalOf(raw: string, policy: UrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The URL is not valid.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Only http and https URLs are loaded.";
  if (policy.devOrigins.has(url.origin)) return null;
  try {
    await checkTarget(raw, POLICY, policy.resolve);
    return null;
  } catch (err) {
    if (err instanceof TargetRefused) return err.message;
    throw err;
  }
}
