import { expect } from "vitest";
import type { Pixels } from "../../../src/engines/images/types";
import { ADMIN_TOKEN, call } from "../../support/http";
import { ok, type ImageOk } from "./client";

// Which memory road an image call took, from GET /admin/v1/runtime: local
// workerd enforces no memory limit, so an output check passes whichever road
// ran, and tests that claim a road read these counts.

export interface Roads {
  sources: Record<string, number>;
  sinks: Record<string, number>;
}

async function roads(): Promise<Roads> {
  const r = (await (await call("/admin/v1/runtime", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { images: { roads: Roads } };
  return r.images.roads;
}

/** Runs `work` and answers which roads it took (counts of calls by road). */
export async function roadsOf(work: () => Promise<unknown>): Promise<Roads> {
  const before = await roads();
  await work();
  const after = await roads();
  const diff = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(b).flatMap(([k, v]) => (v - (a[k] ?? 0) > 0 ? [[k, v - (a[k] ?? 0)]] : [])));
  return { sources: diff(before.sources, after.sources), sinks: diff(before.sinks, after.sinks) };
}

/** A successful image call over HTTP (`ok`) and the roads it took. */
export async function okOnRoads(...args: Parameters<typeof ok>): Promise<{ out: ImageOk; taken: Roads }> {
  let out: ImageOk | undefined;
  const taken = await roadsOf(async () => {
    out = await ok(...args);
  });
  return { out: out as ImageOk, taken };
}

/** Mean absolute difference of `channels` over a regular sample of pixels (a full pass over 24 MP twice would be slow for nothing). */
export function sampledDiff(a: Pixels, b: Pixels, channels = [0, 1, 2]): number {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.width * a.height; i += 101) {
    for (const c of channels) sum += Math.abs(a.data[i * 4 + c] - b.data[i * 4 + c]);
    n += channels.length;
  }
  return sum / n;
}
