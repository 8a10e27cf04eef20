import { z } from "zod";

// Plans and limits: the one table of each (docs/reference/accounts-and-keys.md
// for plans, docs/reference/README.md for limits). Nothing else in the
// code compares plan names; it asks these tables.

export type PlanName = "free" | "starter" | "pro" | "enterprise";
export type CompressionLevel = "basic" | "medium" | "maximum";
export type EventTier = "free" | "pro";

export interface Plan {
  paid: boolean;
  keyCap: number;
  compression: CompressionLevel;
  aiExtract: boolean;
  aiMarkdown: boolean;
  eventTiers: readonly EventTier[];
}

export const PLANS: Record<PlanName, Plan> = {
  free: { paid: false, keyCap: 2, compression: "basic", aiExtract: false, aiMarkdown: false, eventTiers: ["free"] },
  starter: { paid: true, keyCap: 10, compression: "medium", aiExtract: false, aiMarkdown: true, eventTiers: ["free"] },
  pro: { paid: true, keyCap: 50, compression: "maximum", aiExtract: true, aiMarkdown: true, eventTiers: ["free", "pro"] },
  enterprise: { paid: true, keyCap: 500, compression: "maximum", aiExtract: true, aiMarkdown: true, eventTiers: ["free", "pro"] },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];
/** The plan names as a schema (request and answer bodies). */
export const planName = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]);

/** Anonymous calls compress at `medium` (docs/reference/pdf-toolkit.md). */
export const ANONYMOUS_COMPRESSION: CompressionLevel = "medium";

const MiB = 1024 * 1024;

export const LIMITS = {
  fileBytes: 50 * MiB,
  requestBytes: 100 * MiB,
  anonymousPerMinute: 20,
  authenticatedPerMinute: 300,
  imageMegapixels: 100,
  pdfPages: 2000,
  splitParts: 200,
  compressMinBase64: 100,
  /**
   * What one uploaded ZIP package (a DOCX, an HTML assets ZIP) may expand to,
   * all its entries together. Unpacked entries are JavaScript memory, held
   * beside the upload and, for DOCX, a stored copy for mammoth, inside an
   * isolate of 128 MB (docs/memory.md): 32 MiB keeps that under 100 MiB.
   */
  zipInflatedBytes: 32 * MiB,
  /** Compress PDF download links, valid 24 hours (docs/reference/files.md). */
  tempUrlSeconds: 24 * 3600,
  /** Default lifetime of a dashboard JWT issued by the operator API. */
  jwtTtlSeconds: 12 * 3600,
} as const;

/** A balance under this share of the last top-up triggers `credits.low`. */
export const LOW_CREDIT_RATIO = 0.1;
