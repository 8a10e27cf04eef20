import { z } from "zod";
import { ENTITY_TYPES } from "../engines/pii/entity-types";
import { defineRoute } from "../http/route";

/**
 * Public helper routes that belong to tools but are not tool calls (they run
 * no engine and charge nothing), such as GET /api/v1/redact/entity-types.
 */

// Public, no authentication, sorted alphabetically, in the envelope
// { "entity_types": [...] } (docs/reference/pdf-stamps.md, Redact PII).
const entityTypes = defineRoute({
  id: "listRedactEntityTypes",
  method: "get",
  path: "/api/v1/redact/entity-types",
  tags: ["tools"],
  summary: "The PII entity types PII redaction can find",
  auth: "public",
  responses: {
    200: {
      description: "Entity types, sorted",
      schema: z.object({ entity_types: z.array(z.string()) }),
      headers: { "Cache-Control": { description: "public, max-age=3600", schema: { type: "string" } } },
    },
  },
  handler: (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.json({ entity_types: [...ENTITY_TYPES].sort() });
  },
});

export const EXTRA_TOOL_ROUTES = [entityTypes];
