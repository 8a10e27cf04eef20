import type { Env } from "../../env";
import { settingsOf } from "../../settings";
import { pageTimeout } from "./errors";
import { PAGE_TIMEOUT_MS } from "./limits";

// One time budget for a render: creating its browser context, loading,
// waiting and printing. Puppeteer bounds navigation and waitFor* itself, but
// evaluate, pdf, screenshot, addStyleTag and the CDP commands behind newPage
// only give up at its protocol timeout (180 s, and @cloudflare/puppeteer's
// connect takes no option to shorten it): a page whose script spins never
// answers them. So every step is raced against the deadline here.

export class Deadline {
  readonly ms: number;
  private readonly end: number;
  constructor(ms: number) {
    this.ms = ms;
    this.end = Date.now() + ms;
  }
  remaining(): number {
    return Math.max(1, this.end - Date.now());
  }
  passed(): boolean {
    return Date.now() >= this.end;
  }
}

export function deadlineFor(env: Env): Deadline {
  return new Deadline(settingsOf(env).BROWSER_PAGE_TIMEOUT_MS ?? PAGE_TIMEOUT_MS);
}

/** Thrown by `bounded` when the deadline passes first: the render's browser state is not trusted afterwards. */
export class StepTimedOut extends Error {
  constructor(readonly what: string) {
    super(`${what} did not finish before the deadline`);
    this.name = "StepTimedOut";
  }
}

/**
 * `op`, or a StepTimedOut once the deadline passes. The abandoned promise
 * keeps running until the browser context is closed, then rejects: its
 * rejection is swallowed so it is never reported as unhandled.
 */
export function bounded<T>(deadline: Deadline, what: string, op: Promise<T>): Promise<T> {
  return within(deadline.remaining(), op, () => new StepTimedOut(what));
}

/** Like `bounded` for clean-up, which runs after the deadline: a short wait of its own; true when `op` succeeded in time. */
export async function succeededWithin(ms: number, op: Promise<unknown>): Promise<boolean> {
  try {
    await within(ms, op, () => new StepTimedOut("clean-up"));
    return true;
  } catch {
    return false;
  }
}

function within<T>(ms: number, op: Promise<T>, timedOut: () => Error): Promise<T> {
  op.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([op, expiry]).finally(() => clearTimeout(timer));
}

/** The caller-facing answer to a step that ran out of time. */
export const stepTimeout = (deadline: Deadline, err: StepTimedOut) => pageTimeout(deadline.ms, err.what);
