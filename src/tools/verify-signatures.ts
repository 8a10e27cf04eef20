import type * as pkijs from "pkijs";
import { z } from "zod";
import { parseCertificates } from "../engines/signatures/cms-verify";
import { readSignatures } from "../engines/signatures/verify";
import { ApiError } from "../errors";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { uploads } from "./fields";
import { certificateSummarySchema } from "./signer-schema";

// Beyond the original API contract (issue #33): reads and checks every
// signature of a PDF. docs/reference/pdf-sign.md is the caller's page.

const MAX_ANCHORS = 50;

const signature = z.object({
  field: z.string(),
  filter: z.string().nullable(),
  sub_filter: z.string().nullable(),
  signer: certificateSummarySchema.nullable(),
  signing_time: z.string().nullable().meta({ description: "The signature dictionary's /M, as ISO 8601 UTC." }),
  cms_signing_time: z.string().nullable().meta({ description: "The CMS signing-time attribute when present (PAdES signatures have none)." }),
  reason: z.string().nullable(),
  location: z.string().nullable(),
  contact_info: z.string().nullable(),
  digest_algorithm: z.string().nullable(),
  signature_algorithm: z.string().nullable(),
  has_signing_certificate_v2: z.boolean().meta({ description: "The ESS signing-certificate-v2 attribute PAdES B-B requires is signed." }),
  certification: z.number().int().nullable().meta({ description: "DocMDP P (1-3) when this signature certifies the document." }),
  byte_range: z.array(z.number().int()).nullable(),
  byte_range_covers_revision: z
    .boolean()
    .meta({ description: "The /ByteRange starts at 0, leaves out exactly the /Contents string and ends where a revision of the file ends." }),
  modified_after_signing: z.boolean().meta({ description: "The file goes on past the signed range (later incremental updates)." }),
  revisions_after: z.number().int().meta({ description: "How many revisions were appended after this signature's." }),
  digest_matches: z.boolean().meta({ description: "The signed message-digest equals the hash of the bytes the /ByteRange names." }),
  signature_valid: z.boolean().meta({ description: "The CMS signature over the signed attributes verifies with the signer certificate's public key." }),
  chain: z.enum(["not_checked", "trusted", "untrusted"]).meta({ description: "not_checked unless trust_anchors were given." }),
  problems: z.array(z.string()),
});

export const verifySignatures = defineTool({
  id: "verify-signatures",
  name: "Verify signatures",
  method: "post",
  path: "/api/v1/pdf/signatures",
  body: "multipart",
  summary:
    "List and check a PDF's digital signatures: signer, times, byte range coverage, later changes, digest and signature validity, and optionally the chain to your trust anchors. Beyond the original API contract.",
  operations: [{ key: "pdf.signatures", name: "Verify signatures", credits: 10, access: "free-try" }],
  request: z.object({
    file: pdfUpload415(),
    trust_anchors: uploads()
      .optional()
      .meta({ description: "Certificates (PEM, one or more per file, or DER) to build the signer's chain to. Without them `chain` is not_checked." }),
  }),
  response: z.object({
    ...completedJob,
    pages: z.number().int(),
    signature_count: z.number().int(),
    signatures: z.array(signature),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const files = input.trust_anchors ?? [];
    if (files.length > MAX_ANCHORS)
      throw new ApiError("validation_failed", `At most ${MAX_ANCHORS} trust_anchors files.`, {
        errors: [{ field: "trust_anchors", message: `At most ${MAX_ANCHORS} files.` }],
      });
    let anchors: pkijs.Certificate[] | null = null;
    for (const f of files) {
      const certs = parseCertificates(new Uint8Array(await f.arrayBuffer()));
      if (!certs?.length) {
        const message = `${f.name} is not a PEM or DER certificate.`;
        throw new ApiError("validation_failed", message, { errors: [{ field: "trust_anchors", message }] });
      }
      anchors = [...(anchors ?? []), ...certs];
    }
    const { pages, signatures } = await readSignatures(data, anchors);
    return {
      body: {
        ...completedFields(ctx, started),
        pages,
        signature_count: signatures.length,
        signatures,
      },
    };
  },
});
