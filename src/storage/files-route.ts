import { z } from "zod";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { checkSignature, objectKeyOf } from "./signed-url";

/** GET /files/<key>: serves outputs from R2 (the public URL when no CDN base is set). */
const getFile = defineRoute({
  id: "downloadFile",
  method: "get",
  path: "/files/{key}",
  // The key spans segments; the handler judges it from the raw path, segment by segment.
  honoPath: "/files/:key{.+}",
  tags: ["files"],
  summary: "Download a tool's output",
  description:
    "The URLs tools answer with (output_url, output_urls). No credentials: the key is unguessable. Temporary outputs (tmp/...) need the signed `expires` and `sig` the URL carries and answer 410 once expired.",
  auth: "public",
  params: z.object({ key: z.string().describe("The stored key, outputs/... or tmp/..., as in the URL a tool answered.") }),
  query: z.object({ expires: z.string().optional(), sig: z.string().optional() }),
  problems: ["not_found", "gone"],
  responses: {
    200: {
      description: "The file, with its Content-Type and a Content-Disposition naming it",
      media: "application/octet-stream",
      headers: {
        "Content-Disposition": { description: "attachment; filename=...; filename*=UTF-8''...", schema: { type: "string" } },
        ETag: { description: "R2's entity tag", schema: { type: "string" } },
      },
    },
  },
  handler: async (c, { query }) => {
    const key = keyOf(new URL(c.req.url).pathname.slice("/files/".length));
    if (!key) throw new ApiError("not_found", "No such file.");
    let objectKey = key;
    if (key.startsWith("tmp/")) {
      const check = await checkSignature(c.env, key, query.expires ?? null, query.sig ?? null);
      if (check === "expired") throw new ApiError("gone", "This download link has expired.");
      if (check === "invalid") throw new ApiError("not_found", "No such file.");
      // Stored under a name the link does not show (signed-url.ts).
      objectKey = await objectKeyOf(c.env, key);
    } else if (!key.startsWith("outputs/")) {
      throw new ApiError("not_found", "No such file.");
    }
    const object = await c.env.FILES.get(objectKey);
    if (!object) throw new ApiError("not_found", "No such file.");
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set("Content-Length", String(object.size));
    headers.set("ETag", object.httpEtag);
    return new Response(object.body, { headers });
  },
});

export const FILE_ROUTES = [getFile];

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
