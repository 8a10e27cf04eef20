import { describe, expect, it } from "vitest";
import { makePdf } from "../../../test/support/pdf.mjs";
import { isLinearized, linearize } from "./linearization";
import { qpdfStats, runQpdf } from "./run";

// `linearized` in Repair PDF's answer is read from the file: these pin down
// the reading, including the files it must say false for.

describe("isLinearized", () => {
  it("false for a plain file, true once qpdf has linearized it", async () => {
    const plain = await makePdf({ pages: 3, label: "Lin" });
    expect(isLinearized(plain)).toBe(false);
    const linear = await linearize(plain);
    expect(linear).not.toBeNull();
    expect(isLinearized(linear?.data ?? plain)).toBe(true);
  });

  it("false when bytes were appended after linearizing (an incremental update voids it)", async () => {
    const linear = await linearize(await makePdf({ pages: 2 }));
    const data = linear?.data ?? new Uint8Array();
    const updated = new Uint8Array(data.byteLength + 12);
    updated.set(data);
    updated.set(new TextEncoder().encode("\n% appended\n"), data.byteLength);
    expect(isLinearized(updated)).toBe(false);
  });

  it("false for a /Linearized dictionary that is not the first object", () => {
    const text = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n<< /Linearized 1 /L 80 >>\nendobj\n";
    expect(isLinearized(new TextEncoder().encode(text))).toBe(false);
  });

  it("linearize answers null when qpdf cannot read the input; qpdf's failure is an exit code, not a throw", async () => {
    const junk = new TextEncoder().encode("%PDF-1.7\nnot a pdf\n");
    expect(await linearize(junk)).toBeNull();
    const run = await runQpdf(["--check", "{in}"], junk);
    expect(run.code).toBe(2);
    expect(run.messages.join("\n")).toMatch(/startxref|not a PDF|damaged/i);
  });
});

/** A one-page PDF whose catalog holds `count` small indirect objects: qpdf keeps each in its heap. */
function manyObjects(count: number): Uint8Array {
  const parts = ["%PDF-1.7\n"];
  const offsets: number[] = [];
  let at = parts[0].length;
  const add = (body: string) => {
    const text = `${offsets.length + 1} 0 obj\n${body}\nendobj\n`;
    offsets.push(at);
    parts.push(text);
    at += text.length;
  };
  add("<</Type/Catalog/Pages 2 0 R/Many 4 0 R>>");
  add("<</Type/Pages/Kids[3 0 R]/Count 1>>");
  add("<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>");
  add(`[${Array.from({ length: count }, (_, i) => `${i + 5} 0 R`).join(" ")}]`);
  for (let i = 0; i < count; i++) add(`<</N ${i}/S(object ${i})>>`);
  const rows = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${rows}trailer\n<</Size ${offsets.length + 1}/Root 1 0 R>>\nstartxref\n${at}\n%%EOF\n`);
  return new TextEncoder().encode(parts.join(""));
}

describe("qpdf's heap ceiling", () => {
  it("past the ceiling allocation fails inside qpdf: exit 2 with bad_alloc, no throw, both instances dropped", async () => {
    const ceiling = 18 * 1024 * 1024;
    const heavy = manyObjects(30_000);
    const free = await runQpdf(["--linearize", "{in}", "{out}"], heavy);
    expect(free.code).toBe(0); // fits the default ceiling
    const capped = await runQpdf(["--linearize", "{in}", "{out}"], heavy, ceiling);
    expect(capped.code).toBe(2);
    expect(capped.messages.join("\n")).toMatch(/bad_alloc/);
    expect(qpdfStats().live_bytes).toBe(0); // both instances were dropped
  });
});
