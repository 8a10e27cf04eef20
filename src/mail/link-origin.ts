import type { Env } from "../env";
import { settingsOf } from "../settings";

/**
 * The origin that links in mail (sign-in, invitations) point at. With
 * CONSOLE_ORIGIN set, the request's Host plays no part, so no request can
 * make a sign-in link lead anywhere else; unset, the origin the request
 * arrived at (right when the console and the API share one hostname).
 */
export function linkOrigin(env: Env, requestUrl: string): string {
  return settingsOf(env).CONSOLE_ORIGIN ?? new URL(requestUrl).origin;
}
