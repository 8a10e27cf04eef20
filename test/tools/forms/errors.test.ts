import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, pdfFile, postForm, problem, withKey } from "../../support/http";
import { corruptPdf, encryptedPdf } from "../../support/pdf.mjs";
import { formPdf, xfaOnlyPdf } from "./fixture";

const READ = "/api/v1/pdf/forms/read";
const FILL = "/api/v1/pdf/forms/fill";
type Fields = Parameters<typeof postForm>[1];

/** A refused call: its status and code, nothing charged; answers the problem's per-field errors. */
async function refused(path: string, fields: Fields, status: number, code: string) {
  const acct = await accountWithKey({ credits: 100 });
  const before = await balanceOf(acct.token);
  const res = await postForm(path, fields, withKey(acct.key));
  const body = await problem(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  expect(await balanceOf(acct.token)).toBe(before);
  return body;
}

const text = new TextEncoder().encode("just some text");

describe("Forms tools: bad input", () => {
  for (const path of [READ, FILL]) {
    it(`${path}: a file that is not a PDF is a 415`, async () => {
      await refused(path, { file: file(text, "notes.txt", "text/plain") }, 415, "unsupported_media_type");
      await refused(path, { file: pdfFile(text, "fake.pdf") }, 415, "unsupported_media_type");
    });

    it(`${path}: encrypted and corrupt PDFs are 422s`, async () => {
      await refused(path, { file: pdfFile(await encryptedPdf(await formPdf()), "locked.pdf") }, 422, "password_protected");
      await refused(path, { file: pdfFile(corruptPdf(), "broken.pdf") }, 422, "unreadable_document");
    });

    it(`${path}: an XFA-only form is refused as not supported`, async () => {
      const body = await refused(path, { file: pdfFile(await xfaOnlyPdf(), "xfa.pdf") }, 422, "xfa_not_supported");
      expect(body.detail).toMatch(/XFA forms are not supported/);
    });
  }

  const fillWith = async (values: string) => ({ file: pdfFile(await formPdf(), "form.pdf"), values });

  it("unknown fields, invalid choices and states, too-long text: each named, nothing filled", async () => {
    const values = { nope: "x", color: "Purple", size: "XL", fruits: ["Apple", "Kiwi"], "person.name": "Ada Lovelace!", agree: "Maybe", notes: "fine" };
    const body = await refused(FILL, await fillWith(JSON.stringify(values)), 422, "validation_failed");
    const named = (body.errors ?? []).map((e) => e.field).sort();
    expect(named).toEqual(["values.agree", "values.color", "values.fruits", "values.nope", "values.person.name", "values.size"]);
  });

  it("values of the wrong kind are refused", async () => {
    const fields = async (values: unknown) =>
      ((await refused(FILL, await fillWith(JSON.stringify(values)), 422, "validation_failed")).errors ?? []).map((e) => e.field).sort();
    // Not a string, boolean or array of strings at all.
    expect(await fields({ "person.name": 5, notes: null, agree: true })).toEqual(["values.notes", "values.person.name"]);
    // The right JSON types for some field, not for these.
    expect(await fields({ size: true, color: ["Red"], "person.name": "two\nlines", agree: ["Yes"] })).toEqual([
      "values.agree",
      "values.color",
      "values.person.name",
      "values.size",
    ]);
  });

  it("a read-only field is refused by name", async () => {
    const body = await refused(FILL, await fillWith('{"id":"B-2","agree":true}'), 422, "validation_failed");
    expect(body.errors?.map((e) => e.field)).toEqual(["values.id"]);
  });

  it("malformed JSON in values is a 400, and values must be an object", async () => {
    await refused(FILL, await fillWith("{not json"), 400, "invalid_json");
    await refused(FILL, await fillWith('["agree"]'), 422, "validation_failed");
  });

  it("flatten_annotations without flatten is refused", async () => {
    await refused(FILL, { ...(await fillWith("{}")), flatten_annotations: "true" }, 422, "validation_failed");
  });
});
