import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { postFormWith, promptOf, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { file, problem, withKey } from "../../support/http";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";
import type { Answer } from "../../support/answers";

// AI extract, text path (engine=auto): the PDF's text to the text model, the
// answer parsed, completed with nulls and validated against the preset or
// the caller's schema; retried once with the errors, then `_unparsed`.

const PATH = "/api/v1/ai/extract-data";
const invoicePdf = () =>
  layoutPdf([
    [
      { text: "INVOICE INV-2024-0042", x: 72, y: 90, size: 18, font: "bold" },
      { text: "Date: 2024-03-15", x: 72, y: 130 },
      { text: "From: Acme Tools Ltd, 1 Forge Lane, Leeds", x: 72, y: 150 },
      { text: "Total due: 1,250.00 EUR", x: 72, y: 190 },
    ],
  ]);

type Body = Answer<"ai-extract">;

async function extract(fields: Record<string, string | File>, models = stubModels(), plan = "pro") {
  const acct = await accountWithKey({ plan, credits: 1000 });
  const res = await postFormWith(stubEnv(models), PATH, fields, withKey(acct.key));
  return { res, acct, models };
}

describe("AI extract, text path", () => {
  it("an invoice preset: the text and the preset's schema go to the text model; absent fields come back null; 100 credits", async () => {
    const models = stubModels();
    await script(models.text, [{ content: JSON.stringify({ invoice_number: "INV-2024-0042", invoice_date: "2024-03-15", total: 1250, currency: "EUR" }) }]);
    const { res, acct } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), preset: "invoice" }, models);
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, engine: "auto", preset: "invoice", had_schema: false, parsed_ok: true, credits_charged: 100 });
    expect(body.data).toMatchObject({ invoice_number: "INV-2024-0042", total: 1250, due_date: null, vendor: null, line_items: null, payment_terms: null });
    expect(Number.isInteger(body.processing_time_ms) && body.processing_time_ms >= 0).toBe(true);
    expect(res.headers.get("X-Credits-Charged")).toBe("100");
    expect(await balanceOf(acct.token)).toBe(900);
    const [sent] = await stubRequests(models.text);
    const prompt = promptOf(sent);
    expect(prompt).toContain("INV-2024-0042");
    expect(prompt).toContain("Total due: 1,250.00 EUR");
    expect(prompt).toContain('"invoice_number"');
    expect(prompt).toMatch(/never guess/i);
    expect(sent.body.response_format).toEqual({ type: "json_object" });
  });

  it("a caller's schema overrides the preset: preset answers null, had_schema true, missing properties null", async () => {
    const models = stubModels();
    const schema = { type: "object", properties: { number: { type: "string" }, total: { type: "number" }, iban: { type: "string" } }, required: ["number"] };
    await script(models.text, [{ content: '```json\n{"number": "INV-2024-0042", "total": 1250}\n```' }]);
    const { res } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), preset: "receipt", schema: JSON.stringify(schema) }, models);
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ preset: null, had_schema: true, parsed_ok: true, engine: "auto" });
    expect(body.data).toEqual({ number: "INV-2024-0042", total: 1250, iban: null });
    expect(promptOf((await stubRequests(models.text))[0])).toContain('"iban"');
  });

  it("blank (read as the default auto) or unknown presets ask for salient fields and echo the preset", async () => {
    for (const [preset, echoed] of [
      ["", "auto"],
      ["passport", "passport"],
    ]) {
      const models = stubModels();
      await script(models.text, [{ content: '{"invoice_id": "INV-2024-0042"}' }]);
      const { res } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), preset }, models);
      const body = (await res.json()) as Body;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ preset: echoed, had_schema: false, parsed_ok: true, data: { invoice_id: "INV-2024-0042" } });
      const prompt = promptOf((await stubRequests(models.text))[0]);
      expect(prompt).toMatch(/salient fields/);
      expect(prompt).not.toContain("JSON Schema");
    }
  });

  it("an answer that breaks the schema is retried once with the validation errors, and the second answer is used", async () => {
    const models = stubModels();
    const schema = { type: "object", properties: { total: { type: "number" } }, required: ["total"] };
    await script(models.text, [{ content: '{"total": "about a thousand"}' }, { content: '{"total": 1250}' }]);
    const { res } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), schema: JSON.stringify(schema) }, models);
    const body = (await res.json()) as Body;
    expect(body).toMatchObject({ parsed_ok: true, data: { total: 1250 } });
    const sent = await stubRequests(models.text);
    expect(sent).toHaveLength(2);
    const retry = promptOf(sent[1]);
    expect(retry).toContain("/total");
    expect(retry).toContain("about a thousand");
  });

  it("two unusable answers: 200 with data {_unparsed: raw} and parsed_ok false, still charged", async () => {
    const models = stubModels();
    await script(models.text, [{ content: "I could not find an invoice." }, { content: "Sorry, still nothing here." }]);
    const { res, acct } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), preset: "invoice" }, models);
    const body = (await res.json()) as Body;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ parsed_ok: false, data: { _unparsed: "Sorry, still nothing here." }, credits_charged: 100 });
    expect(await stubRequests(models.text)).toHaveLength(2);
    expect(await balanceOf(acct.token)).toBe(900);
  });

  it("the model's answer is bounded: a 200 kB answer is cut before parsing and comes back as a bounded _unparsed", async () => {
    const models = stubModels();
    await script(models.text, [{ bytes: 200_000 }, { bytes: 200_000 }]);
    const { res } = await extract({ file: file(await invoicePdf(), "invoice.pdf"), preset: "invoice" }, models);
    const body = (await res.json()) as Body;
    expect(res.status).toBe(200);
    expect(body.parsed_ok).toBe(false);
    // The schema leaves `data` open (it is the model's JSON); the fallback is {_unparsed: string}.
    expect((body.data as { _unparsed: string })._unparsed.length).toBeLessThanOrEqual(64_000);
  });

  it("a scanned invoice (no text layer) is read by OCR, and its text goes to the text model", async () => {
    const models = stubModels();
    await script(models.text, [{ content: JSON.stringify({ invoice_number: "INV-2024-0042", total: 1250, currency: "EUR" }) }]);
    const { res } = await extract({ file: file(await scanOf(await invoicePdf(), { dpi: 200 }), "scan.pdf"), preset: "invoice" }, models);
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ engine: "auto", parsed_ok: true, credits_charged: 100, data: { invoice_number: "INV-2024-0042" } });
    const prompt = promptOf((await stubRequests(models.text))[0]);
    expect(prompt).toContain("INV-2024-0042");
    expect(prompt).toContain("Acme Tools Ltd");
  });

  it("a scan with no readable text (and no text layer) is 422 no_extractable_text on the text path, refunded", async () => {
    const models = stubModels();
    const blank = await scanOf(await layoutPdf([[{ image: [100, 100, 300, 200] }]]), { dpi: 100 });
    const { res, acct } = await extract({ file: file(blank, "scan.pdf") }, models);
    const p = await problem(res);
    expect(res.status).toBe(422);
    expect(p.code).toBe("no_extractable_text");
    expect(await balanceOf(acct.token)).toBe(1000);
    expect(await stubRequests(models.text)).toHaveLength(0);
  });
});
