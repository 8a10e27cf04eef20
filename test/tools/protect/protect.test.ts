import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import type { Answer } from "../../support/answers";
import { download, file, type form, pdfFile, postForm, problem, withKey } from "../../support/http";
import { withMupdf, mupdfTexts } from "../../support/mupdf";
import { corruptPdf, encryptedPdf, makeImage, makePdf } from "../../support/pdf.mjs";
import { isEncrypted } from "../../support/pdf-read";

// Protect PDF, checked the way a user would: the file it answers is
// encrypted, our own Unlock PDF opens it with each password and refuses a
// wrong one, and an independent reader (the test-only MuPDF) finds exactly
// the permissions asked for.

const PROTECT = "/api/v1/pdf/protect";
const UNLOCK = "/api/v1/security/security/password/remove";
const BROWSER = { Origin: "https://app.example.test" };

type Fields = Parameters<typeof form>[0];
type ProtectBody = Answer<"protect-pdf">;
type UnlockBody = Answer<"unlock-pdf">;

const plain = () => makePdf({ pages: 2, label: "Guarded" });

async function protect(fields: Fields, headers: Record<string, string> = {}) {
  const res = await postForm(PROTECT, fields, headers);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as ProtectBody;
  return { res, body, out: await download(body.file_url) };
}

async function unlock(bytes: Uint8Array, password: string) {
  const res = await postForm(UNLOCK, { file: pdfFile(bytes, "locked.pdf"), password }, BROWSER);
  return { res, body: (await res.clone().json()) as UnlockBody };
}

// MuPDF's names for the /P bits, against ours.
const MUPDF_NAMES = {
  print: "print",
  print_high_quality: "print-hq",
  copy: "copy",
  modify: "edit",
  annotate: "annotate",
  fill_forms: "form",
  extract_for_accessibility: "accessibility",
  assemble: "assemble",
} as const;
type Permission = keyof typeof MUPDF_NAMES;
const ALL = Object.keys(MUPDF_NAMES) as Permission[];

/** What the file grants after opening with `password`, and which password that was (2 user, 4 owner, 6 both; 1 none needed). */
function readAccess(bytes: Uint8Array, password?: string): Promise<{ auth: number; granted: Permission[] }> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    try {
      const auth = password === undefined ? (doc.needsPassword() ? 0 : 1) : doc.authenticatePassword(password);
      return { auth, granted: ALL.filter((p) => doc.hasPermission(MUPDF_NAMES[p])) };
    } finally {
      doc.destroy();
    }
  });
}

describe("POST /api/v1/pdf/protect: the output", () => {
  it("AES-256 by default: encrypted, Unlock opens it with the user and with the owner password, the text is intact, a wrong password is refused", async () => {
    const original = await plain();
    const { body, out } = await protect({ file: pdfFile(original, "report.pdf"), user_password: "open sesame", owner_password: "master key 42" }, BROWSER);
    expect(body).toMatchObject({
      status: "completed",
      operation_type: "add_password",
      success: true,
      pages: 2,
      encryption: "aes-256",
      permissions: ALL,
      requires_password_to_open: true,
      owner_password_generated: false,
    });
    expect(body.job_id).toBeTruthy();
    expect(body.file_url).toMatch(/report_protected\.pdf$/);
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await isEncrypted(out)).toBe(true);
    await expect(PDFDocument.load(out)).rejects.toThrow(/encrypted/i);
    expect(await isEncrypted(original)).toBe(false);

    for (const password of ["open sesame", "master key 42"]) {
      const { res, body: opened } = await unlock(out, password);
      expect(res.status, JSON.stringify(opened)).toBe(200);
      expect(opened).toMatchObject({ was_encrypted: true, pages: 2 });
      expect(opened.encryption).toMatch(/^Standard V5 R6 256-bit AES$/);
      expect(await mupdfTexts(await download(opened.file_url))).toEqual(await mupdfTexts(original));
    }
    expect((await readAccess(out, "open sesame")).auth).toBe(2);
    expect((await readAccess(out, "master key 42")).auth).toBe(4);

    const wrong = await unlock(out, "open sesame!");
    expect(wrong.res.status).toBe(400);
    expect((await problem(wrong.res)).code).toBe("wrong_password");
  });

  it("aes-128 on request: Standard V4 R4 128-bit AES, opened by Unlock", async () => {
    const { body, out } = await protect(
      { file: pdfFile(await plain(), "a.pdf"), user_password: "u-128", owner_password: "o-128", encryption: "AES-128" },
      BROWSER,
    );
    expect(body.encryption).toBe("aes-128");
    const { res, body: opened } = await unlock(out, "u-128");
    expect(res.status).toBe(200);
    expect(opened.encryption).toBe("Standard V4 R4 128-bit AES");
  });

  it.each([
    { asked: "print,copy", granted: ["print", "copy", "extract_for_accessibility"] },
    { asked: ["print", "print_high_quality", "fill_forms"], granted: ["print", "print_high_quality", "fill_forms", "extract_for_accessibility"] },
    { asked: ["modify, annotate", "assemble"], granted: ["modify", "annotate", "extract_for_accessibility", "assemble"] },
    { asked: "none", granted: ["extract_for_accessibility"] },
    { asked: undefined, granted: ALL },
  ] as { asked: string | string[] | undefined; granted: Permission[] }[])(
    "permissions $asked: the user password gets exactly $granted, the owner every right",
    async ({ asked, granted }) => {
      for (const encryption of ["aes-256", "aes-128"]) {
        const { body, out } = await protect(
          { file: pdfFile(await plain(), "p.pdf"), user_password: "reader", owner_password: "author", encryption, permissions: asked },
          BROWSER,
        );
        expect(body.permissions).toEqual(granted);
        expect(await readAccess(out, "reader")).toEqual({ auth: 2, granted });
        expect((await readAccess(out, "author")).granted).toEqual(ALL);
      }
    },
  );

  it("without owner_password a random one is set: the user password is only the user password", async () => {
    const { body, out } = await protect({ file: pdfFile(await plain(), "p.pdf"), user_password: "reader", permissions: "print" }, BROWSER);
    expect(body).toMatchObject({ owner_password_generated: true, requires_password_to_open: true, permissions: ["print", "extract_for_accessibility"] });
    expect(await readAccess(out, "reader")).toEqual({ auth: 2, granted: ["print", "extract_for_accessibility"] });
    // Two calls, two owner passwords: the files' owner keys differ.
    const again = await protect({ file: pdfFile(await plain(), "p.pdf"), user_password: "reader", permissions: "print" }, BROWSER);
    expect(ownerEntry(again.out)).not.toEqual(ownerEntry(out));
  });

  it("with only owner_password the file opens without a password and keeps the restrictions", async () => {
    const original = await plain();
    const { body, out } = await protect({ file: pdfFile(original, "p.pdf"), owner_password: "author", permissions: "print" }, BROWSER);
    expect(body).toMatchObject({ requires_password_to_open: false, owner_password_generated: false });
    expect(await isEncrypted(out)).toBe(true);
    expect(await readAccess(out)).toEqual({ auth: 1, granted: ["print", "extract_for_accessibility"] });
    expect(await mupdfTexts(out)).toEqual(await mupdfTexts(original));
    const { res } = await unlock(out, "author");
    expect(res.status).toBe(200);
  });

  it("AES-256 passwords are prepared with SASLprep, as Unlock and PDF 2.0 readers prepare them", async () => {
    const { out } = await protect({ file: pdfFile(await plain(), "p.pdf"), user_password: "pass\u00A0word", owner_password: "A\u030Alesund" }, BROWSER);
    for (const typed of ["pass word", "pass\u00A0word", "Ålesund"]) {
      const { res } = await unlock(out, typed);
      expect(res.status, typed).toBe(200);
    }
  });
});

/** The /O entry of the encryption dictionary, as written. */
function ownerEntry(bytes: Uint8Array): string {
  const text = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
  const match = /\/O\s*(<[0-9a-fA-F]+>|\((?:\\.|[^\\)])*\))/.exec(text);
  expect(match).not.toBeNull();
  return match?.[1] ?? "";
}

describe("POST /api/v1/pdf/protect: refusals charge nothing", () => {
  async function refused(fields: () => Promise<Fields>, status: number, code: string) {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const res = await postForm(PROTECT, await fields(), withKey(acct.key));
    expect(res.status, await res.clone().text()).toBe(status);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    const p = await problem(res);
    expect(p.code).toBe(code);
    expect(await balanceOf(acct.token)).toBe(50);
    return p;
  }
  const pdf = async () => pdfFile(await plain(), "in.pdf");

  it("422 validation_failed without any password", async () => {
    const p = await refused(async () => ({ file: await pdf(), permissions: "print" }), 422, "validation_failed");
    expect(p.errors?.map((e) => e.field)).toEqual(["user_password"]);
  });

  it("422 for RC4 (the message says it is insecure) and for an unknown encryption", async () => {
    for (const encryption of ["rc4", "RC4-128", "rc4-40"]) {
      const p = await refused(async () => ({ file: await pdf(), user_password: "u", encryption }), 422, "validation_failed");
      expect(p.errors?.[0].field).toBe("encryption");
      expect(p.detail).toMatch(/RC4 is insecure/);
    }
    const p = await refused(async () => ({ file: await pdf(), user_password: "u", encryption: "aes-512" }), 422, "validation_failed");
    expect(p.errors?.[0].field).toBe("encryption");
  });

  it("422 naming unknown permissions; print_high_quality without print; none mixed with names", async () => {
    const p = await refused(async () => ({ file: await pdf(), user_password: "u", permissions: ["print,teleport", "fly"] }), 422, "validation_failed");
    expect(p.errors?.[0].field).toBe("permissions");
    expect(p.detail).toContain("teleport");
    expect(p.detail).toContain("fly");
    expect(p.detail).not.toMatch(/Unknown permission[^;]*print[,;]/);
    for (const permissions of ["print_high_quality", "none,print", " , "]) {
      const q = await refused(async () => ({ file: await pdf(), user_password: "u", permissions }), 422, "validation_failed");
      expect(q.errors?.[0].field, permissions).toBe("permissions");
    }
  });

  it("422 for passwords the encryption cannot keep, and for equal passwords with restrictions", async () => {
    const cases: [Fields, string][] = [
      [{ user_password: "Ålesund", encryption: "aes-128" }, "user_password"],
      [{ user_password: "u", owner_password: "x".repeat(33), encryption: "aes-128" }, "owner_password"],
      [{ user_password: "ä".repeat(64) }, "user_password"],
      [{ user_password: "same", owner_password: "same", permissions: "print" }, "owner_password"],
    ];
    for (const [fields, field] of cases) {
      const p = await refused(async () => ({ file: await pdf(), ...fields }), 422, "validation_failed");
      expect(p.errors?.map((e) => e.field)).toEqual([field]);
    }
  });

  it("422 password_protected for an encrypted input, also one that opens without a password", async () => {
    await refused(async () => ({ file: pdfFile(await encryptedPdf(await plain()), "locked.pdf"), user_password: "u" }), 422, "password_protected");
    const { out: ownerOnly } = await protect({ file: await pdf(), owner_password: "author", permissions: "print" }, BROWSER);
    await refused(async () => ({ file: pdfFile(ownerOnly, "restricted.pdf"), user_password: "u", owner_password: "mine" }), 422, "password_protected");
  });

  it("415 for a non-PDF by content, by name, or no file; 422 unreadable_document for a corrupt PDF", async () => {
    const png = await makeImage("png", 20, 20, [0, 0, 255]);
    await refused(async () => ({ file: file(png, "picture.pdf"), user_password: "u" }), 415, "unsupported_media_type");
    await refused(async () => ({ file: file(await plain(), "doc.txt", "text/plain"), user_password: "u" }), 415, "unsupported_media_type");
    await refused(async () => ({ user_password: "u" }), 415, "unsupported_media_type");
    await refused(async () => ({ file: pdfFile(corruptPdf(), "bad.pdf"), user_password: "u" }), 422, "unreadable_document");
  });
});

describe("POST /api/v1/pdf/protect: credits", () => {
  it("charges 10 to a key (balance falls by exactly that); anonymous browser calls cost 0", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 50 });
    const { res } = await protect({ file: pdfFile(await plain(), "a.pdf"), user_password: "u" }, withKey(acct.key));
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
    const anon = await protect({ file: pdfFile(await plain(), "a.pdf"), user_password: "u" });
    expect(anon.res.headers.get("X-Credits-Charged")).toBe("0");
  });
});
