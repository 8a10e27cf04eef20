import { Hono } from "hono";
import { ApiError } from "../errors";
import type { AppEnv } from "../http/context";
import { checkSignature } from "./signed-url";

/** GET /files/<key>: serves outputs from R2 (the public URL when no CDN base is set). */
export const filesRoute = new Hono<AppEnv>().get("/files/*", async (c) => {
  const key = keyOf(new URL(c.req.url).pathname.slice("/files/".length));
  if (!key) throw new ApiError("not_found", "No such file.");
  if (key.startsWith("tmp/")) {
    const check = await checkSignature(c.env, key, c.req.query("expires") ?? null, c.req.query("sig") ?? null);
    if (check === "expired") throw new ApiError("gone", "This download link has expired.");
    if (check === "invalid") throw new ApiError("not_found", "No such file.");
  } else if (!key.startsWith("outputs/")) {
    throw new ApiError("not_found", "No such file.");
  }
  const object = await c.env.FILES.get(key);
  if (!object) throw new ApiError("not_found", "No such file.");
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("Content-Length", String(object.size));
  headers.set("ETag", object.httpEtag);
  return new Response(object.body, { headers });
});

/**
 * The R2 key a /files/ path names, judged segment by segment: every segment
 * must decode, and none may be empty, "." or "..", or hide a "/" or a control
 * character behind percent-encoding. Dots inside a name are fine: stored keys
 * (outputKey) are built from the same rule, so every key we hand out is one
 * this route serves.
 */
function keyOf(path: string): string | null {
  const segments: string[] = [];
  for (const raw of path.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === "" || segment === "." || segment === ".." || /[/\u0000-\u001f\u007f]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join("/");
}
