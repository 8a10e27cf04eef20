import type { operations } from "../../clients/typescript/src/schema";

// The JSON a tool or route answers, as the types generated from /openapi.json
// (clients/typescript) describe it: the document is derived from each
// declaration's zod `response` schema, so tests do not restate the shape.
// (ToolDef erases a tool's schema type, so z.output<typeof tool.response>
// would be a bare object; the generated types keep every field.)

type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The application/json body of operation `Id` (its operationId) for `Status`. */
export type Answer<Id extends keyof operations, Status extends number = 200> = operations[Id]["responses"] extends infer R
  ? Status extends keyof R
    ? JsonOf<R[Status]>
    : never
  : never;
