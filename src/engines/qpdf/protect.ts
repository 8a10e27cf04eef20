import { EngineError } from "../errors";
import { runQpdf } from "./run";

// Password protection with qpdf's --encrypt (qpdf 12 named-option syntax, so
// a password that starts with "-" is never read as an option). Only AES is
// written: qpdf refuses RC4 without --allow-weak-crypto, and we never pass it.

/** The user-password rights a caller can name, each one bit of /P (ISO 32000-2, Table 22). */
export const PERMISSIONS = ["print", "print_high_quality", "copy", "modify", "annotate", "fill_forms", "extract_for_accessibility", "assemble"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ENCRYPTIONS = ["aes-256", "aes-128"] as const;
export type Encryption = (typeof ENCRYPTIONS)[number];

/**
 * Always granted: PDF 2.0 deprecates bit 10 and tells readers to ignore it,
 * and qpdf writes it set for every AES file ("--accessibility=n is ignored
 * for modern encryption formats").
 */
export const ALWAYS_GRANTED: readonly Permission[] = ["extract_for_accessibility"];

export interface ProtectOptions {
  /** Empty: the file opens without a password and only the permissions apply. */
  userPassword: string;
  ownerPassword: string;
  encryption: Encryption;
  permissions: ReadonlySet<Permission>;
}

export interface Protected {
  data: Uint8Array;
  /** What the file grants the user password, in PERMISSIONS order. */
  permissions: Permission[];
}

const yn = (granted: boolean) => (granted ? "y" : "n");

/** qpdf's print levels: bit 3 alone is low resolution, bits 3 and 12 full. */
function printLevel(p: ReadonlySet<Permission>): "full" | "low" | "none" {
  if (!p.has("print")) return "none";
  return p.has("print_high_quality") ? "full" : "low";
}

/** The qpdf command line for `options`, "{in}" and "{out}" where run.ts puts the files. */
export function encryptArgs(options: ProtectOptions): string[] {
  const p = options.permissions;
  return [
    "{in}",
    "--encrypt",
    `--user-password=${options.userPassword}`,
    `--owner-password=${options.ownerPassword}`,
    `--bits=${options.encryption === "aes-256" ? 256 : 128}`,
    ...(options.encryption === "aes-128" ? ["--use-aes=y"] : []),
    `--print=${printLevel(p)}`,
    `--extract=${yn(p.has("copy"))}`,
    `--modify-other=${yn(p.has("modify"))}`,
    `--annotate=${yn(p.has("annotate"))}`,
    `--form=${yn(p.has("fill_forms"))}`,
    `--assemble=${yn(p.has("assemble"))}`,
    "--",
    "{out}",
  ];
}

/** The rights the written file grants: the ones asked for plus those PDF 2.0 always grants. */
export const grantedPermissions = (asked: ReadonlySet<Permission>): Permission[] =>
  PERMISSIONS.filter((name) => asked.has(name) || ALWAYS_GRANTED.includes(name));

/**
 * Encrypts a PDF that has no encryption yet (the caller checks that). qpdf
 * repairs what it can of a damaged file and says so with exit code 3; an
 * exit of 2 means it could not read the file, a failed allocation that it
 * needs more memory than a call may take.
 */
export async function protectPdf(bytes: Uint8Array, options: ProtectOptions): Promise<Protected> {
  const run = await runQpdf(encryptArgs(options), bytes);
  if ((run.code === 0 || run.code === 3) && run.output) return { data: run.output, permissions: grantedPermissions(options.permissions) };
  const said = run.messages.filter(Boolean).join(" ").slice(0, 500);
  if (run.code === -1 || /bad_alloc|out of memory/i.test(said)) throw new EngineError("too_large", `The PDF needs more memory than a call has: ${said}`);
  throw new EngineError("corrupt", `qpdf could not encrypt the PDF: ${said}`);
}
