// Console sign-in policy in one table: how long links and sessions live and
// how often a link may be asked for (docs/operations.md, Console sign-in).

export const SESSION_POLICY = {
  /** A sign-in link is good for 15 minutes, once (issue #17). */
  magicLinkSeconds: 15 * 60,
  /** At most this many links per e-mail address in `magicLinkWindowSeconds`; more are dropped silently. */
  magicLinksPerEmail: 5,
  magicLinkWindowSeconds: 15 * 60,
  /** A session ends after this long without a request... */
  idleSeconds: 30 * 60,
  /** ...and in any case this long after sign-in. */
  absoluteSeconds: 12 * 3600,
  /** A cookie older than this is re-issued on the next request (sliding renewal without a D1 write per call). */
  renewAfterSeconds: 5 * 60,
} as const;

/** `__Host-`: Secure, Path=/, no Domain, so no subdomain can set or shadow it. */
export const SESSION_COOKIE = "__Host-session";
