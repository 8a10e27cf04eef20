import { z } from "zod";

/** A certificate as Sign PDF and Verify signatures report it (engines/signatures/cms-verify.ts certificateSummary). */
export const certificateSummarySchema = z.object({
  subject: z.object({ cn: z.string().nullable(), o: z.string().nullable(), dn: z.string() }),
  issuer: z.string(),
  serial: z.string().meta({ description: "Hexadecimal." }),
  valid_from: z.string(),
  valid_to: z.string(),
});
