// /docs in a real browser: headless Chromium (puppeteer-core, the system
// Chromium) against the bundled `wrangler dev`. A reader pastes an API key,
// runs Merge PDF on two files from the page, follows the result link and
// gets the merged PDF. Elements are found by role and accessible name, as a
// screen reader finds them. Without Chromium the test skips visibly (fails
// under REQUIRE_CHROMIUM=1, as in .ci/run).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument } from "pdf-lib";
import puppeteer from "puppeteer-core";
import { systemChromium } from "../../scripts/chrome-shim.mjs";
import { downloaded, pdfWithPages as pdfWithPagesIn } from "./browser-files.mjs";
import { createAccountWithKey, requireChromium, startServer } from "./server.mjs";

let srv;
let browser;
const dir = mkdtempSync(join(tmpdir(), "docapi-docs-e2e-"));

before(async () => {
  srv = await startServer();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A PDF of `pages` pages in this test's folder. */
const pdfWithPages = (pages, label) => pdfWithPagesIn(dir, pages, label);

test("/docs: paste a key, merge two PDFs from the page, follow the result link", { timeout: 180_000 }, async (t) => {
  if (!requireChromium(t)) return;
  // The account and its key, made as a new user would: operator API, then POST /api/v1/keys.
  const { apiKey, token } = await createAccountWithKey(srv.base, { credits: 1000 });
  const a = await pdfWithPages(2, "first");
  const b = await pdfWithPages(3, "second");

  browser = await puppeteer.launch({ executablePath: systemChromium(), headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });

  const res = await page.goto(`${srv.base}/docs`, { waitUntil: "networkidle0" });
  assert.equal(res.status(), 200);
  assert.match(res.headers()["content-security-policy"], /script-src 'self'/);

  await page.locator("::-p-aria(API key)").fill(apiKey);
  const mergeTitle = "Merge PDF: POST /api/v1/pdf/merge/merge";
  await page.locator(`::-p-aria(${mergeTitle})`).click();
  const form = await page.waitForSelector("::-p-aria([name='Try Merge PDF'][role='form'])", { visible: true });
  // Chromium's accessibility query (CDP Accessibility.queryAXTree) does not
  // return file inputs, so this one field is found by its form field name.
  const files = await form.waitForSelector("input[type=file][name=files]");
  await files.uploadFile(a, b);
  await (await form.waitForSelector("::-p-aria([name='Send'][role='button'])")).click();

  const result = await page.waitForSelector("::-p-aria([name='Response to Merge PDF'][role='region'])");
  const link = await result.waitForSelector("::-p-aria([name='output_url'][role='link'])", { timeout: 60_000 });
  const text = await result.evaluate((el) => el.textContent);
  assert.match(text, /HTTP 200/);
  assert.match(text, /credits charged 10/);
  assert.match(text, /"pages": 5/);

  // Follow the link as a reader would: Chromium downloads the attachment.
  const downloads = join(dir, "downloads");
  mkdirSync(downloads);
  const session = await browser.target().createCDPSession();
  await session.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  const href = await link.evaluate((el) => el.href);
  assert.match(href, /\/files\/outputs\//);
  await link.click();
  const merged = await PDFDocument.load(readFileSync(await downloaded(downloads)));
  assert.equal(merged.getPageCount(), 5);

  // The call was billed like any other: 10 credits.
  const account = await (await fetch(`${srv.base}/api/v1/account`, { headers: { Authorization: `Bearer ${token}` } })).json();
  assert.equal(account.balance, 990);
  assert.deepEqual(problems, [], "no script errors or CSP violations on the page");
});

test("/docs lists every documented operation, and a wrong key answers problem+json in the page", { timeout: 120_000 }, async (t) => {
  if (!requireChromium(t)) return;
  browser ??= await puppeteer.launch({ executablePath: systemChromium(), headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  await page.goto(`${srv.base}/docs`, { waitUntil: "networkidle0" });
  const doc = await (await fetch(`${srv.base}/openapi.json`)).json();
  const documented = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  const shown = await page.$$eval("details.op", (els) => els.length);
  assert.equal(shown, documented);

  await page.locator("::-p-aria(API key)").fill("dt_live_wrong");
  await page.locator("::-p-aria(The caller's account and its balance: GET /api/v1/account)").click();
  const form = await page.waitForSelector("::-p-aria([name=\"Try The caller's account and its balance\"][role='form'])", { visible: true });
  await (await form.waitForSelector("::-p-aria([name='Send'][role='button'])")).click();
  const result = await page.waitForSelector("::-p-aria([name=\"Response to The caller's account and its balance\"][role='region'])");
  await page.waitForFunction((el) => /HTTP \d{3}/.test(el.textContent), {}, result);
  const text = await result.evaluate((el) => el.textContent);
  assert.match(text, /HTTP 401/);
  assert.match(text, /invalid_credentials/);
});
