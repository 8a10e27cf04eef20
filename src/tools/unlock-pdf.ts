import { z } from "zod";
import { unlockPdf as unlockDocument } from "../engines/mupdf/unlock/unlock";
import { derivedPdfName } from "../storage/outputs";
import { defineTool } from "./define";
import { upload } from "./fields";
import { completedFields, completedJob } from "./common";

export const unlockPdf = defineTool({
  id: "unlock-pdf",
  name: "Unlock PDF",
  method: "post",
  path: "/api/v1/security/security/password/remove",
  body: "multipart",
  summary: "Remove the password from an encrypted PDF (RC4, AES-128, AES-256) given its user or owner password.",
  operations: [{ key: "pdf.unlock", name: "Unlock PDF", credits: 10, access: "free-try" }],
  anonymousNeedsOrigin: true,
  // A corrupt PDF is a 400 here, like a wrong password (docs/reference/pdf-toolkit.md).
  engineErrors: { corrupt: "corrupt_pdf" },
  request: z.object({
    file: upload({ extensions: [".pdf"], wrongType: "bad_request", missing: "bad_request", empty: "bad_request" }),
    password: z.string({ error: "password is required." }),
  }),
  response: z.object({
    ...completedJob,
    operation_type: z.literal("remove_password"),
    success: z.boolean(),
    file_url: z.string(),
    was_encrypted: z.boolean().meta({ description: "False when the file had no encryption (it is returned unchanged)." }),
    encryption: z.string().nullable().meta({ description: "The removed encryption, e.g. 'Standard V5 R6 256-bit AES'." }),
    pages: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const outcome = await unlockDocument(new Uint8Array(await input.file.arrayBuffer()), input.password);
    const name = derivedPdfName(input.file.name, "unlocked");
    const stored = await ctx.store({ filename: name, contentType: "application/pdf", data: outcome.data });
    return {
      body: {
        ...completedFields(ctx, started),
        operation_type: "remove_password",
        success: true,
        file_url: stored.url,
        was_encrypted: outcome.encryption !== null,
        encryption: outcome.encryption,
        pages: outcome.pages,
      },
    };
  },
});
