import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import type { Answer } from "../../support/answers";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { pdfFile, postForm, withKey } from "../../support/http";
import { plainPdf } from "../../support/pdf.mjs";
import { formPdf } from "./fixture";

const READ = "/api/v1/pdf/forms/read";
type Body = Answer<"forms-read">;
type Field = Body["fields"][number];

async function read(pdf: Uint8Array): Promise<Body> {
  const res = await postForm(READ, { file: pdfFile(pdf, "form.pdf") });
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Each widget's /Rect as pdf-lib reads it, by full field name. */
async function pdfLibRects(pdf: Uint8Array): Promise<Map<string, number[][]>> {
  const form = (await PDFDocument.load(pdf)).getForm();
  return new Map(
    form.getFields().map((f) => [
      f.getName(),
      f.acroField.getWidgets().map((w) => {
        const r = w.getRectangle();
        return [r.x, r.y, r.x + r.width, r.y + r.height];
      }),
    ]),
  );
}

const byName = (fields: Field[]) => new Map(fields.map((f) => [f.name, f]));

describe("POST /api/v1/pdf/forms/read", () => {
  it("lists every field with its type, value, options, flags and widgets", async () => {
    const pdf = await formPdf();
    const body = await read(pdf);
    expect(body).toMatchObject({ status: "completed", pages: 2 });
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const f = byName(body.fields);
    expect([...f.keys()]).toEqual(["person.name", "notes", "agree", "size", "color", "fruits", "id"]);
    const base = { options: [], required: false, read_only: false, max_length: null, multiline: false, multi_select: false };
    expect(f.get("person.name")).toMatchObject({ ...base, type: "text", value: "", required: true, max_length: 10 });
    expect(f.get("notes")).toMatchObject({ ...base, type: "text", value: "", multiline: true });
    expect(f.get("agree")).toMatchObject({ ...base, type: "checkbox", value: "Off", options: [{ value: "Yes", label: "Yes" }] });
    // pdf-lib names a radio group's states 0, 1, 2 and keeps the option names in /Opt.
    expect(f.get("size")).toMatchObject({
      ...base,
      type: "radio",
      value: "Off",
      options: [
        { value: "0", label: "S" },
        { value: "1", label: "M" },
        { value: "2", label: "L" },
      ],
    });
    const choices = (names: string[]) => names.map((n) => ({ value: n, label: n }));
    expect(f.get("color")).toMatchObject({ ...base, type: "combo", value: "", options: choices(["Red", "Green", "Blue"]) });
    expect(f.get("fruits")).toMatchObject({ ...base, type: "list", value: [], multi_select: true, options: choices(["Apple", "Banana", "Cherry"]) });
    expect(f.get("id")).toMatchObject({ ...base, type: "text", value: "A-1", read_only: true });

    const pages = Object.fromEntries(body.fields.map((x) => [x.name, x.widgets.map((w) => w.page)]));
    expect(pages).toEqual({ "person.name": [1], notes: [1], agree: [1], size: [1, 1, 1], color: [2], fruits: [2], id: [2] });
    const rects = await pdfLibRects(pdf);
    for (const field of body.fields) {
      expect(
        field.widgets.map((w) => w.rect),
        field.name,
      ).toEqual(rects.get(field.name));
    }
  });

  it("a PDF without a form answers an empty list", async () => {
    const body = await read(await plainPdf(2));
    expect(body.fields).toEqual([]);
    expect(body.pages).toBe(2);
  });

  it("charges 10 credits to a key", async () => {
    const acct = await accountWithKey({ credits: 50 });
    const res = await postForm(READ, { file: pdfFile(await formPdf(), "form.pdf") }, withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
  });

  itWithCorpus("reads the form of a corpus file (pdf.js: a fuzzed PDFBox file with one multiline field)", async () => {
    const body = await read(await corpusFile("pdfjs/broken/PDFBOX-3148-2-fuzzed.pdf"));
    expect(body.fields.map((x) => [x.name, x.type, x.widgets.map((w) => w.page)])).toEqual([["multiline", "text", [1]]]);
    const [field] = body.fields;
    const [x0, y0, x1, y1] = field.widgets[0].rect;
    expect(x1).toBeGreaterThan(x0);
    expect(y1).toBeGreaterThan(y0);
  });
});
