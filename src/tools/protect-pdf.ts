import { z } from "zod";
import { plainPdfPages } from "../engines/mupdf/inspect/encryption";
import { ALWAYS_GRANTED, ENCRYPTIONS, type Encryption, PERMISSIONS, type Permission, protectPdf as protectDocument } from "../engines/qpdf/protect";
import { saslprep } from "../engines/text/saslprep";
import { derivedPdfName } from "../storage/outputs";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";

const MiB = 1024 * 1024;

// Beyond the original API contract (it has no such tool): the reverse of
// Unlock PDF. docs/reference/pdf-protect.md is the caller's page.

const isPermission = (name: string): name is Permission => (PERMISSIONS as readonly string[]).includes(name);

/**
 * A comma-separated list, repeated fields, or both. `none` grants nothing:
 * an empty field counts as absent (http/validate.ts) and would grant all.
 */
const permissionsField = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw, ctx): Permission[] => {
    if (raw === undefined) return [...PERMISSIONS];
    const names = (Array.isArray(raw) ? raw : [raw])
      .flatMap((s) => s.split(","))
      .map((s) => s.trim().toLowerCase().replace(/-/g, "_"))
      .filter(Boolean);
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (names.length === 1 && names[0] === "none") return [];
    const unknown = [...new Set(names.filter((n) => !isPermission(n)))];
    if (unknown.length) return fail(`Unknown permission ${unknown.join(", ")}; use ${PERMISSIONS.join(", ")}, or none alone.`);
    if (!names.length) return fail(`Name at least one permission (${PERMISSIONS.join(", ")}), or none.`);
    if (names.includes("print_high_quality") && !names.includes("print")) {
      return fail("print_high_quality needs print: a PDF cannot allow high-quality printing without printing.");
    }
    return PERMISSIONS.filter((p) => names.includes(p));
  })
  .meta({
    type: "string",
    description: `What the user password grants: a comma-separated list (or repeated fields) of ${PERMISSIONS.join(", ")}; \`none\` for nothing. All when omitted. extract_for_accessibility is always granted (PDF 2.0).`,
  });

const encryptionField = z
  .string()
  .optional()
  .transform((raw, ctx): Encryption => {
    const value = (raw ?? "aes-256").trim().toLowerCase().replace(/_/g, "-");
    if ((ENCRYPTIONS as readonly string[]).includes(value)) return value as Encryption;
    const weak = /rc4|arc4|40/.test(value);
    ctx.addIssue({
      code: "custom",
      message: weak
        ? "RC4 is insecure (its keys can be recovered) and is not offered: use aes-256 (the default) or aes-128."
        : "Use aes-256 (the default) or aes-128.",
    });
    return z.NEVER;
  })
  .meta({
    type: "string",
    enum: [...ENCRYPTIONS],
    default: "aes-256",
    description: "AES-256 (PDF 2.0, revision 6) or AES-128 (PDF 1.6). RC4 is refused as insecure.",
  });

const password = (what: string) => z.string().max(1000).optional().meta({ description: what });

// Bytes a password keeps: revision 6 hashes the first 127 bytes of UTF-8, revision 4 the first 32 (ISO 32000-2, 7.6.4.3).
const AES256_MAX_BYTES = 127;
const AES128_MAX_CHARS = 32;
// AES-128 passwords are PDFDocEncoding bytes, which readers map from what is typed in different ways: printable ASCII is what they all agree on.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function passwordProblem(value: string, encryption: Encryption): string | null {
  if (encryption === "aes-256") {
    const bytes = new TextEncoder().encode(saslprep(value)).byteLength;
    return bytes > AES256_MAX_BYTES ? `AES-256 keeps only the first ${AES256_MAX_BYTES} bytes of a password (this one has ${bytes} in UTF-8).` : null;
  }
  if (!PRINTABLE_ASCII.test(value)) return "AES-128 passwords must be printable ASCII; use aes-256 for any Unicode password.";
  return value.length > AES128_MAX_CHARS ? `AES-128 keeps only the first ${AES128_MAX_CHARS} characters of a password.` : null;
}

/** 24 random bytes as 32 URL-safe characters (192 bits): nobody, the caller included, learns it. */
function randomOwnerPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

const request = z
  .object({
    file: pdfUpload415(),
    user_password: password("Opens the file with the permissions below. Omit it for a file that opens without a password but keeps the restrictions."),
    owner_password: password(
      "Opens the file with every right and can lift the restrictions. When omitted a random 32-character one is set and not returned, so nobody can open the file as its owner.",
    ),
    encryption: encryptionField,
    permissions: permissionsField,
  })
  .superRefine((i, ctx) => {
    const add = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    if (i.user_password === undefined && i.owner_password === undefined) return add("user_password", "Give user_password, owner_password or both.");
    for (const field of ["user_password", "owner_password"] as const) {
      const value = i[field];
      const problem = value === undefined || typeof i.encryption !== "string" ? null : passwordProblem(value, i.encryption);
      if (problem) add(field, problem);
    }
    const granted: readonly Permission[] = Array.isArray(i.permissions) ? i.permissions : PERMISSIONS;
    const restricted = PERMISSIONS.some((p) => !granted.includes(p) && !ALWAYS_GRANTED.includes(p));
    if (restricted && i.user_password !== undefined && i.user_password === i.owner_password) {
      add("owner_password", "owner_password must differ from user_password, or whoever opens the file has every right and the permissions mean nothing.");
    }
  });

export const protectPdf = defineTool({
  id: "protect-pdf",
  name: "Protect PDF",
  method: "post",
  path: "/api/v1/pdf/protect",
  body: "multipart",
  summary:
    "Encrypt a PDF with AES-256 (default) or AES-128, set a user and/or owner password and choose what the user password permits (beyond the original API contract).",
  operations: [{ key: "pdf.protect", name: "Protect PDF", credits: 10, access: "free-try" }],
  // Defaults fit: corrupt -> 422 unreadable_document, already encrypted -> 422 password_protected, not a PDF -> 415.
  request,
  response: z.object({
    ...completedJob,
    operation_type: z.literal("add_password"),
    success: z.boolean(),
    file_url: z.string(),
    pages: z.number().int(),
    encryption: z.enum(ENCRYPTIONS),
    permissions: z.array(z.enum(PERMISSIONS)).meta({ description: "What the user password grants in the file written." }),
    requires_password_to_open: z.boolean().meta({ description: "False when only an owner password was given." }),
    owner_password_generated: z.boolean().meta({ description: "True when no owner_password was given and a random one was set." }),
  }),
  // MuPDF's check (8 MB + 4x the file), then a qpdf instance (16 MB heap at
  // start) with the file it reads and the one it writes in its memory.
  memory: (input) => 24 * MiB + 7 * input.file.size,
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const pages = await plainPdfPages(data);
    // PDF 2.0 prescribes SASLprep for AES-256 passwords; Unlock PDF tries the prepared form first.
    const prepare = (p: string) => (input.encryption === "aes-256" ? saslprep(p) : p);
    const outcome = await protectDocument(data, {
      userPassword: prepare(input.user_password ?? ""),
      ownerPassword: input.owner_password === undefined ? randomOwnerPassword() : prepare(input.owner_password),
      encryption: input.encryption,
      permissions: new Set([...input.permissions, ...ALWAYS_GRANTED]),
    });
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "protected"), contentType: "application/pdf", data: outcome.data });
    return {
      body: {
        ...completedFields(ctx, started),
        operation_type: "add_password",
        success: true,
        file_url: stored.url,
        pages,
        encryption: input.encryption,
        permissions: outcome.permissions,
        requires_password_to_open: (input.user_password ?? "") !== "",
        owner_password_generated: input.owner_password === undefined,
      },
    };
  },
});
