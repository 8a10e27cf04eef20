import { Hono } from "hono";
import { ApiError } from "../errors";
import type { AppEnv } from "../http/context";
import { checkSignature } from "./signed-url";

/** GET /files/<key>: serves outputs from R2 (the public URL when no CDN base is set). */
export const filesRoute = new Hono<AppEnv>().get("/files/*", async (c) => {
  const key = decodeURIComponent(new URL(c.req.url).pathname.slice("/files/".length));
  if (!key || key.includes("..")) throw new ApiError("not_found", "No such file.");
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
