import { z } from "zod";
import { defineTool } from "./define";
import { upload } from "./fields";

export const unlockPdf = defineTool({
  id: "unlock-pdf",
  name: "Unlock PDF",
  method: "post",
  path: "/api/v1/security/security/password/remove",
  body: "multipart",
  summary: "Remove the password from an encrypted PDF (RC4, AES-128, AES-256).",
  operations: [{ key: "pdf.unlock", name: "Unlock PDF", credits: 10, access: "free-try" }],
  anonymousNeedsOrigin: true,
  request: z.object({
    file: upload({ extensions: [".pdf"], wrongType: "bad_request", missing: "bad_request", empty: "bad_request" }),
    password: z.string({ error: "password is required." }),
  }),
  response: z.object({
    job_id: z.string(),
    status: z.literal("completed"),
    operation_type: z.literal("remove_password"),
    success: z.boolean(),
    file_url: z.string(),
    processing_time_ms: z.number().int(),
    created_at: z.string(),
  }),
});
