import { z } from "zod";
import { DOCS_HTML, DOCS_STYLE } from "../docs-page";
import { defineRoute } from "../http/route";
import { staticTextRoute } from "../http/static-text";
import { openApiDocument, operatorOpenApiDocument } from "./openapi";
import { DOCS_SCRIPT } from "./docs-script";

// The API's own front door: the index, the two OpenAPI documents and the
// /docs reference page with its script and style (separate files, so the
// page's Content-Security-Policy can forbid inline script and style).

const tags = ["reference"];
const openApiObject = z.record(z.string(), z.unknown()).describe("An OpenAPI 3.1 document.");
const origin = (url: string) => new URL(url).origin;

const index = defineRoute({
  id: "getIndex",
  method: "get",
  path: "/",
  tags,
  summary: "Where the reference lives",
  auth: "public",
  responses: { 200: { description: "Links to /docs and /openapi.json", schema: z.object({ name: z.string(), docs: z.string(), openapi: z.string() }) } },
  handler: (c) => c.json({ name: "Document Processing API", docs: "/docs", openapi: "/openapi.json" }),
});

const publicDocument = defineRoute({
  id: "getOpenApiDocument",
  method: "get",
  path: "/openapi.json",
  tags,
  summary: "This OpenAPI document",
  auth: "public",
  responses: { 200: { description: "OpenAPI 3.1", schema: openApiObject } },
  handler: (c) => c.json(openApiDocument(origin(c.req.url))),
});

const operatorDocument = defineRoute({
  id: "adminGetOpenApiDocument",
  method: "get",
  path: "/admin/openapi.json",
  tags: ["operator"],
  summary: "The operator API's OpenAPI document",
  auth: "admin",
  responses: { 200: { description: "OpenAPI 3.1", schema: openApiObject } },
  handler: (c) => c.json(operatorOpenApiDocument(origin(c.req.url))),
});

const asset = (id: string, path: string, summary: string, media: string, text: string, redirectsFrom?: string[]) =>
  staticTextRoute(id, path, tags, summary, media, text, redirectsFrom);

export const REFERENCE_ROUTES = [
  index,
  publicDocument,
  operatorDocument,
  // People type the page with a trailing slash; an API path keeps its exact form.
  asset("getDocsPage", "/docs", "The interactive API reference", "text/html", DOCS_HTML, ["/docs/"]),
  asset("getDocsScript", "/docs/app.js", "The reference page's script", "text/javascript", DOCS_SCRIPT),
  asset("getDocsStyle", "/docs/app.css", "The reference page's style", "text/css", DOCS_STYLE),
];
