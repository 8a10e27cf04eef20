import { expect, it } from "vitest";
import { corpusFile, corpusList, corpusManifest, describeWithCorpus } from "./corpus";

// The corpus helper itself: other suites (part B too) rely on it.
describeWithCorpus("corpus helper", () => {
  it("reads files byte for byte, lists folders and parses manifests", async () => {
    const bad1 = await corpusFile("qpdf/damaged/bad1.pdf");
    expect(bad1.byteLength).toBe(5);
    const damaged = await corpusList("qpdf/damaged");
    expect(damaged).toContain("bad39.pdf");
    expect(damaged.length).toBeGreaterThan(30);
    const rows = await corpusManifest("qpdf");
    expect(rows.find((r) => r.file === "damaged/bad1.pdf")?.bytes).toBe("5");
  });

  it("refuses paths outside the corpus", async () => {
    await expect(corpusFile("../main/package.json")).rejects.toThrow(/400|404/);
  });
});
