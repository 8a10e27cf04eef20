import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFWidgetAnnotation } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import type { Answer } from "../../support/answers";
import { download, pdfFile, postForm, withKey } from "../../support/http";
import { bytesToLatin1 } from "../../support/pdf.mjs";
import { pageTexts, squash, streamBytes } from "../../support/pdf-text";
import { formPdf, withNote } from "./fixture";

const FILL = "/api/v1/pdf/forms/fill";
const READ = "/api/v1/pdf/forms/read";
type Body = Answer<"forms-fill">;

const VALUES = {
  "person.name": "Ada",
  notes: "line one\nline two",
  agree: true,
  size: "M",
  color: "Green",
  fruits: ["Cherry", "Apple"],
};

async function fill(pdf: Uint8Array, fields: Record<string, string>) {
  const res = await postForm(FILL, { file: pdfFile(pdf, "form.pdf"), ...fields });
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { body, out: await download(body.file_url) };
}

async function readBack(pdf: Uint8Array) {
  const res = await postForm(READ, { file: pdfFile(pdf, "out.pdf") });
  const body = (await res.json()) as Answer<"forms-read">;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return Object.fromEntries(body.fields.map((f) => [f.name, f.value]));
}

/** The normal appearance of a widget: a stream, or a dictionary of states. */
function normalAppearance(doc: PDFDocument, widget: PDFWidgetAnnotation) {
  const ap = widget.dict.lookupMaybe(PDFName.of("AP"), PDFDict);
  return ap ? doc.context.lookup(ap.get(PDFName.of("N"))) : undefined;
}

describe("POST /api/v1/pdf/forms/fill", () => {
  it("fills every type; our reader and pdf-lib read the values back", async () => {
    const { body, out } = await fill(await formPdf(), { values: JSON.stringify(VALUES) });
    expect(body).toMatchObject({ status: "completed", fields_filled: 6, flattened: false, pages: 2 });
    expect(body.file_url).toMatch(/form_filled\.pdf$/);

    expect(await readBack(out)).toEqual({
      "person.name": "Ada",
      notes: "line one\nline two",
      agree: "Yes",
      size: "1",
      color: "Green",
      fruits: ["Cherry", "Apple"],
      id: "A-1",
    });
    const form = (await PDFDocument.load(out)).getForm();
    expect(form.getTextField("person.name").getText()).toBe("Ada");
    expect(form.getTextField("notes").getText()).toBe("line one\nline two");
    expect(form.getCheckBox("agree").isChecked()).toBe(true);
    expect(form.getRadioGroup("size").getSelected()).toBe("M");
    expect(form.getDropdown("color").getSelected()).toEqual(["Green"]);
    expect(form.getOptionList("fruits").getSelected().sort()).toEqual(["Apple", "Cherry"]);
    expect(form.getTextField("id").getText()).toBe("A-1");
  });

  it("writes an appearance for every filled widget that shows its value", async () => {
    const { out } = await fill(await formPdf(), { values: JSON.stringify(VALUES) });
    const doc = await PDFDocument.load(out);
    const form = doc.getForm();
    const shows = (name: string, text: string) => {
      for (const w of form.getField(name).acroField.getWidgets()) {
        const n = normalAppearance(doc, w);
        expect(n, name).toBeInstanceOf(PDFStream);
        expect(bytesToLatin1(streamBytes(n)), name).toContain(`(${text})`);
      }
    };
    shows("person.name", "Ada");
    shows("notes", "line two");
    shows("color", "Green");
    shows("fruits", "Cherry");
    // The chosen rows of a list box are painted on the selection colour; one rectangle each.
    const list = bytesToLatin1(streamBytes(normalAppearance(doc, form.getField("fruits").acroField.getWidgets()[0])));
    expect(list.match(/0\.6 0\.75 0\.85 rg/g)).toHaveLength(2);
    // Buttons: the chosen state is shown and has its own appearance.
    const states = (name: string) =>
      form
        .getField(name)
        .acroField.getWidgets()
        .map((w) => {
          const n = normalAppearance(doc, w);
          expect(n, name).toBeInstanceOf(PDFDict);
          const as = w.getAppearanceState()?.decodeText() ?? "";
          if (as !== "Off") expect((n as PDFDict).get(PDFName.of(as)), `${name} ${as}`).toBeDefined();
          return as;
        });
    expect(states("agree")).toEqual(["Yes"]);
    expect(states("size")).toEqual(["Off", "1", "Off"]);
  });

  it("false unchecks, Off clears a radio group, labels and export values both choose", async () => {
    const first = await fill(await formPdf(), { values: JSON.stringify({ agree: "Yes", size: "2", fruits: "Banana" }) });
    expect(await readBack(first.out)).toMatchObject({ agree: "Yes", size: "2", fruits: ["Banana"] });
    const second = await fill(first.out, { values: JSON.stringify({ agree: false, size: "Off", fruits: [] }) });
    expect(await readBack(second.out)).toMatchObject({ agree: "Off", size: "Off", fruits: [] });
  });

  it("flatten: no form fields remain and the values are page text", async () => {
    const { body, out } = await fill(await formPdf(), { values: JSON.stringify(VALUES), flatten: "true" });
    expect(body).toMatchObject({ flattened: true, fields_filled: 6, pages: 2 });
    const doc = await PDFDocument.load(out);
    expect(doc.catalog.get(PDFName.of("AcroForm"))).toBeUndefined();
    expect(doc.getForm().getFields()).toHaveLength(0);
    for (const page of doc.getPages()) expect(page.node.lookupMaybe(PDFName.of("Annots"), PDFArray)?.size() ?? 0).toBe(0);
    const [p1, p2] = (await pageTexts(out)).map(squash);
    expect(p1).toContain("Ada");
    expect(p1).toContain("lineone");
    expect(p2).toContain("Green");
    expect(p2).toContain("Cherry");
    expect(p2).toContain("A-1");
    expect(await readBack(out)).toEqual({});
  });

  it("flatten keeps other annotations unless flatten_annotations", async () => {
    const pdf = await withNote(await formPdf());
    const annots = async (bytes: Uint8Array) => {
      const page = (await PDFDocument.load(bytes)).getPage(0);
      return page.node.lookupMaybe(PDFName.of("Annots"), PDFArray)?.size() ?? 0;
    };
    expect(await annots((await fill(pdf, { flatten: "true" })).out)).toBe(1);
    expect(await annots((await fill(pdf, { flatten: "true", flatten_annotations: "true" })).out)).toBe(0);
  });

  it("charges 10 credits to a key", async () => {
    const acct = await accountWithKey({ credits: 50 });
    const res = await postForm(FILL, { file: pdfFile(await formPdf(), "form.pdf"), values: '{"agree":true}' }, withKey(acct.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
  });
});
