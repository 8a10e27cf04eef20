// Prints the generated layout corpus with Chromium: one HTML document per
// (family, seed), its PDF and its truth JSON, written under
// .cache/layout-corpus/<hash of the generator's source>/ so tests and bench
// share one copy and any change to the generator makes a fresh one.
//
//   node test/support/layout-corpus/generate.mjs      # prints the folder, pages and time
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument } from "pdf-lib";
import puppeteer from "puppeteer-core";
import { systemChromium } from "../../../scripts/chrome-shim.mjs";
import { FAMILIES, lineNumberScript } from "./families.mjs";
import { pageNumbers } from "./furniture.mjs";
import { prng } from "./text.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..", "..");
const SOURCES = ["text.mjs", "doc.mjs", "furniture.mjs", "families.mjs", "generate.mjs"];
/** Documents per family: about 30 pages a family, over 300 in all. */
export const DOCS_PER_FAMILY = 13;

export const version = () =>
  createHash("sha256")
    .update(SOURCES.map((f) => readFileSync(join(HERE, f))).join("\0"))
    .update(String(DOCS_PER_FAMILY))
    .digest("hex")
    .slice(0, 12);

export const corpusDir = () => join(ROOT, ".cache", "layout-corpus", version());

/** Each family's documents, seeded by family and index so adding a family changes no other's. */
function documents() {
  return Object.entries(FAMILIES).flatMap(([family, build], f) =>
    Array.from({ length: DOCS_PER_FAMILY }, (_, i) => build(prng(1000 * (f + 1) + i), `${family}-${String(i + 1).padStart(2, "0")}`)),
  );
}

async function print(page, doc) {
  {
    await page.setContent(doc.page(), { waitUntil: "load" });
    // Margin line numbers are set where Chromium broke the lines (families.mjs, lineNumbered).
    const lineNumbers = doc.lineNumbers ? await page.evaluate(lineNumberScript, doc.lineNumbers) : [];
    const pdf = await page.pdf({ printBackground: true, ...doc.pdf });
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    const truth = { ...doc.truth, pages };
    if (doc.truth.pageNumbers) truth.furniture = [...truth.furniture, ...pageNumbers(doc.truth.pageNumbers, pages)];
    delete truth.pageNumbers;
    truth.furniture = [...truth.furniture, ...lineNumbers.map((text) => ({ text, kind: "number" }))];
    return { pdf, truth, html: doc.lineNumbers ? await page.content() : doc.page() };
  }
}

async function generate(dir) {
  const chromium = systemChromium();
  if (!chromium) throw new Error("no Chromium to print the layout corpus (apt-get install chromium, or set CHROMIUM_PATH)");
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const manifest = [];
  try {
    const docs = documents();
    // A few tabs, each reused: a new tab costs more than the page it prints.
    let next = 0;
    const worker = async () => {
      const page = await browser.newPage();
      while (next < docs.length) {
        const doc = docs[next++];
        const { pdf, truth, html } = await print(page, doc);
        mkdirSync(join(tmp, doc.family), { recursive: true });
        const base = join(doc.family, doc.name);
        writeFileSync(join(tmp, `${base}.pdf`), pdf);
        writeFileSync(join(tmp, `${base}.json`), JSON.stringify(truth, null, 1));
        writeFileSync(join(tmp, `${base}.html`), html);
        manifest.push({ family: doc.family, name: doc.name, pdf: `${base}.pdf`, truth: `${base}.json`, pages: truth.pages });
      }
      await page.close();
    };
    await Promise.all([worker(), worker(), worker()]);
  } finally {
    await browser.close();
  }
  manifest.sort((a, b) => a.pdf.localeCompare(b.pdf));
  writeFileSync(join(tmp, "manifest.json"), JSON.stringify(manifest, null, 1));
  // Another process (bench beside a test run) may have finished first: its copy is as good.
  if (existsSync(join(dir, "manifest.json"))) rmSync(tmp, { recursive: true, force: true });
  else renameSync(tmp, dir);
}

let pending = null;

/** The corpus folder and its manifest, generated first when this version has none. */
export async function ensureLayoutCorpus() {
  const dir = corpusDir();
  if (!existsSync(join(dir, "manifest.json"))) {
    pending ??= generate(dir).finally(() => {
      pending = null;
    });
    await pending;
  }
  return { dir, manifest: JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { dir, manifest } = await ensureLayoutCorpus();
  const pages = manifest.reduce((n, m) => n + m.pages, 0);
  console.log(`${dir}: ${manifest.length} documents, ${pages} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
