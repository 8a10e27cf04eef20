// The console (/console) in a real browser: headless Chromium (puppeteer-core,
// the system Chromium) against the bundled `wrangler dev`, as an account
// owner uses it. Sign in with a link from /dev/mailbox, create a scoped key
// with a budget, merge two PDFs in the playground and download the result,
// see balance and usage move, add a webhook to a local receiver, see and
// redeliver its delivery, invite a member who signs in with a member's rights,
// sign out. A key named like markup shows as text; axe-core finds no serious
// or critical problem on any page. Elements are found by role and accessible
// name. On failure a screenshot of every page seen goes to
// test-artifacts/console/ (kept by .ci/run; CONSOLE_SCREENSHOTS=1 keeps them
// for a passing run too).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PDFDocument } from "pdf-lib";
import puppeteer from "puppeteer-core";
import { systemChromium } from "../../scripts/chrome-shim.mjs";
import { downloaded, pdfWithPages as pdfWithPagesIn } from "./browser-files.mjs";
import { ADMIN_TOKEN, requireChromium, ROOT, startServer } from "./server.mjs";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const ARTIFACTS = join(ROOT, "test-artifacts", "console");
const XSS_NAME = "<img src=x onerror=alert(1)>";

let srv;
let browser;
let receiver;
const received = [];
/** Answers this many requests with 500 before answering 204 (a failed attempt makes a delivery redeliverable). */
let failures = 0;
const dir = mkdtempSync(join(tmpdir(), "docapi-console-e2e-"));
/** The last screenshot of each page, written out only when a step fails. */
const shots = new Map();

before(async () => {
  srv = await startServer({ vars: { ALLOW_INSECURE_WEBHOOKS: "true", ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" } });
  receiver = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (failures > 0) {
        failures--;
        res.writeHead(500).end("down for the test");
      } else res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
});
after(async () => {
  await browser?.close();
  await new Promise((r) => (receiver ? receiver.close(r) : r()));
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A PDF of `pages` pages in this test's folder. */
const pdfWithPages = (pages, label) => pdfWithPagesIn(dir, pages, label);

async function until(what, check, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The newest mailbox link to `email` whose URL contains `marker`. */
async function mailLink(email, marker) {
  return until(`a mail to ${email} with ${marker}`, async () => {
    const res = await fetch(`${srv.base}/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    assert.equal(res.status, 200, "DEV_MAILBOX is on in the e2e server");
    const messages = await res.json();
    return messages.find((m) => m.to === email)?.links.find((l) => l.includes(marker));
  });
}

/** An element by role and accessible name, as a screen reader finds it. */
const byRole = (scope, role, name, opts = {}) =>
  scope.waitForSelector(`::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`, { timeout: 15_000, ...opts });

/**
 * Clicks an element by role and accessible name through a locator, which
 * finds it again when a re-render replaced it between finding and clicking
 * (a list refreshed after a change: "Node is detached from document").
 */
const clickRole = (page, role, name) =>
  page
    .locator(`::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`)
    .setTimeout(15_000)
    .click();

async function textOf(page) {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (cells apart, lines broken) is what a reader sees and what the checks match.
  return page.$eval("main", (el) => el.innerText);
}

/** Remembers a screenshot of the page under `name` (written on failure). */
async function snap(page, name) {
  shots.set(name, await page.screenshot({ fullPage: true }));
}

/** axe-core over the whole page; answers the serious and critical violations. */
async function axe(page, name) {
  await snap(page, name);
  // DevTools evaluation is not subject to the page's CSP, so the page's own policy stays as served.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return {
      engine: r.testEngine.name,
      rules: r.passes.length + r.violations.length + r.incomplete.length,
      violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) })),
    };
  });
  // The scan really ran: axe-core checked its rules against this page.
  assert.equal(result.engine, "axe-core");
  assert.ok(result.rules > 10, `axe ran ${result.rules} rules on ${name}`);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${name}: ${v.id} (${v.impact}) at ${v.nodes.join(", ")}`);
}

function watch(page, problems) {
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    // A 401 from GET /api/v1/auth/session before signing in is the expected way to learn there is no session.
    if (msg.type() === "error" && !/status of 401/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on("dialog", async (d) => {
    problems.push(`unexpected dialog: ${d.message()}`);
    await d.dismiss();
  });
}

async function signIn(page, email) {
  await page.goto(`${srv.base}/console`, { waitUntil: "networkidle0" });
  await until("the sign-in page", () => page.url().includes("/console/sign-in"));
  await byRole(page, "heading", "Sign in");
  await (await byRole(page, "textbox", "E-mail")).type(email);
  await clickRole(page, "button", "Send me a sign-in link");
  await until("the request to be acknowledged", async () => /sign-in link is on its way/.test(await textOf(page)));
  const link = await mailLink(email, "/console/sign-in#token=");
  // Open the link from the development mailbox, as a person would.
  await page.goto(`${srv.base}/dev/mailbox`, { waitUntil: "networkidle0" });
  const anchor = await page.waitForSelector(`a[href=${JSON.stringify(link)}]`);
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), anchor.click()]);
  await byRole(page, "heading", "Overview");
  assert.ok(!page.url().includes("token="), "the token is dropped from the address");
  return link;
}

async function nav(page, name) {
  const link = await byRole(page, "link", name);
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), link.click()]);
  await byRole(page, "heading", name);
}

test("/console: an owner signs in, manages keys, runs a tool, reads usage, handles webhooks and the team, signs out", { timeout: 300_000 }, async (t) => {
  if (!requireChromium(t)) return;
  const owner = `owner-${Date.now().toString(36)}@example.test`;
  const member = `member-${Date.now().toString(36)}@example.test`;
  const acc = await fetch(`${srv.base}/admin/v1/accounts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Console E2E", plan: "pro", credits: 1000, owner_email: owner }),
  });
  assert.equal(acc.status, 201, await acc.clone().text());

  browser = await puppeteer.launch({ executablePath: systemChromium(), headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const problems = [];
  const a11y = [];
  watch(page, problems);

  try {
    // The policy: no inline script or style, no framing.
    const shell = await fetch(`${srv.base}/console/sign-in`);
    const csp = shell.headers.get("content-security-policy") ?? "";
    for (const rule of ["script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "default-src 'none'"])
      assert.ok(csp.includes(rule), `CSP has ${rule}: ${csp}`);
    assert.doesNotMatch(await shell.text(), /<script>|<style>|style=/, "no inline script or style in the shell");
    assert.equal((await fetch(`${srv.base}/console/no-such-page`)).status, 404);

    // Sign in with a link from the mailbox.
    await page.goto(`${srv.base}/console/sign-in`, { waitUntil: "networkidle0" });
    a11y.push(...(await axe(page, "sign-in")));
    const ownerLink = await signIn(page, owner);
    let text = await textOf(page);
    assert.match(text, /Balance\s+1000 credits/);
    assert.match(text, /Plan\s+pro/);
    a11y.push(...(await axe(page, "overview")));

    // API keys: the XSS probe, then a key scoped to Merge PDF with a budget.
    await nav(page, "API keys");
    await (await byRole(page, "textbox", "Name")).type(XSS_NAME);
    await clickRole(page, "button", "Create key");
    await until("the probe key in the list", async () => (await textOf(page)).includes(XSS_NAME));
    assert.equal(await page.$$eval("main img", (els) => els.length), 0, "a key name is text, never markup");

    await (await byRole(page, "textbox", "Name")).type("merge bot");
    await clickRole(page, "checkbox", "Merge PDF: pdf.merge (10 credits, free-try)");
    await (await byRole(page, "spinbutton", "Monthly budget (credits)")).type("100");
    await clickRole(page, "button", "Create key");
    await until("the scoped key in the list", async () => /Key "merge bot" created[\s\S]*merge bot\s/.test(await textOf(page)));
    const secretRegion = await byRole(page, "region", "API key");
    const secret = await secretRegion.$eval("input", (el) => el.value);
    assert.match(secret, /^dt_live_/);
    await byRole(secretRegion, "button", "Copy api key");
    text = await textOf(page);
    assert.match(text, /merge bot/);
    assert.match(text, /0 of 100/, "budget spent out of the monthly budget");
    const scoped = await fetch(`${srv.base}/api/v1/account`, { headers: { "X-API-Key": secret } });
    assert.equal(scoped.status, 200, "the key shown once works");
    // Its use shows as "Last used" (recorded after the answer); the unused probe key says never.
    const lastUsed = (name) =>
      page.$$eval(
        "main table tr",
        (rows, keyName) => {
          const head = [...rows[0].cells].map((c) => c.textContent);
          const row = rows.find((r) => r.cells[0]?.textContent === keyName);
          return row ? row.cells[head.indexOf("Last used")].textContent : null;
        },
        name,
      );
    await until("the key's last use", async () => {
      await page.reload({ waitUntil: "networkidle0" });
      return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test((await lastUsed("merge bot")) ?? "");
    });
    assert.equal(await lastUsed(XSS_NAME), "never");
    a11y.push(...(await axe(page, "keys")));

    // Keyboard: the first Tab reaches the skip link; Enter on Revoke opens the
    // confirmation with focus on Cancel, and Escape closes it without revoking.
    await page.reload({ waitUntil: "networkidle0" });
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
    const revoke = await page.waitForSelector(`::-p-aria([name=${JSON.stringify(`Revoke ${XSS_NAME}`)}][role="button"])`);
    await revoke.focus();
    await page.keyboard.press("Enter");
    await byRole(page, "dialog", `Revoke the key "${XSS_NAME}"? Calls made with it will fail at once.`);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
    await page.keyboard.press("Escape");
    await until("the dialog to close", async () => (await page.$("dialog")) === null);
    assert.doesNotMatch(await textOf(page), /revoked/, "Escape revokes nothing");
    // Revoke it, after confirming.
    await (await page.waitForSelector(`::-p-aria([name=${JSON.stringify(`Revoke ${XSS_NAME}`)}][role="button"])`)).click();
    await clickRole(page, "button", "Revoke key");
    await until("the revocation", async () => /revoked\.|revoked \d/.test(await textOf(page)));
    // The secret is shown once: a reload does not show it again.
    await page.reload({ waitUntil: "networkidle0" });
    assert.ok(!(await page.content()).includes(secret), "the secret is never shown again");

    // Playground: Merge PDF on two files, download the result.
    const a = await pdfWithPages(2, "first");
    const b = await pdfWithPages(3, "second");
    await nav(page, "Playground");
    a11y.push(...(await axe(page, "playground")));
    const picker = await byRole(page, "combobox", "Tool");
    await picker.select("merge-pdf");
    const form = await byRole(page, "form", "Run Merge PDF");
    await (await form.waitForSelector("input[type=file][name=files]")).uploadFile(a, b);
    await (await byRole(form, "button", "Run Merge PDF")).click();
    const link = await byRole(page, "link", "Download output_url", { timeout: 60_000 });
    text = await textOf(page);
    assert.match(text, /HTTP 200 · credits charged: 10/);
    assert.match(text, /"pages": 5/);
    const downloads = join(dir, "downloads");
    mkdirSync(downloads);
    const cdp = await browser.target().createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
    await link.click();
    const merged = await PDFDocument.load(readFileSync(await downloaded(downloads)));
    assert.ok(merged.getPageCount() >= 2, "the merged PDF has the pages of both files");
    assert.equal(merged.getPageCount(), 5);

    // Overview: balance and usage moved.
    await nav(page, "Overview");
    text = await textOf(page);
    assert.match(text, /Balance\s+990 credits/);
    assert.match(text, /10 credits in 1 call from/);
    // The chart's accessible name carries its total (Chromium reports an SVG role=img as "image").
    const chart = await page.waitForSelector('::-p-aria([name="Credits by day: 10 credits in total"])', { timeout: 5000 });
    assert.equal(await chart.evaluate((el) => el.tagName.toLowerCase()), "svg");
    assert.equal(await chart.$$eval("rect.bar", (bars) => bars.filter((b) => Number(b.getAttribute("height")) > 0).length), 1, "one day with a bar");
    assert.match(text, /Merge PDF/, "usage by tool names the tool");
    await page.waitForSelector('::-p-aria([name="Credits by tool: 10 credits in total"])', { timeout: 5000 });
    a11y.push(...(await axe(page, "overview-with-usage")));

    // Webhooks: an endpoint on a local receiver, a test event, its delivery, a redelivery.
    await nav(page, "Webhooks");
    const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
    await (await byRole(page, "textbox", "Endpoint URL")).type(hookUrl);
    const firstEvent = await page.$eval("input[name=event]", (el) => el.value);
    await page.click(`input[name=event][value=${JSON.stringify(firstEvent)}]`);
    await clickRole(page, "button", "Add endpoint");
    const signing = await byRole(page, "region", "Signing secret");
    const firstSecret = await signing.$eval("input", (el) => el.value);
    assert.match(firstSecret, /^whsec_/);
    // Disable and enable again; rotate the secret (a new one, shown once).
    await clickRole(page, "button", `Disable ${hookUrl}`);
    await byRole(page, "button", `Enable ${hookUrl}`);
    assert.match(await textOf(page), /Endpoint disabled\./);
    await clickRole(page, "button", `Enable ${hookUrl}`);
    await byRole(page, "button", `Disable ${hookUrl}`);
    await clickRole(page, "button", `Rotate secret ${hookUrl}`);
    await clickRole(page, "button", "Rotate secret");
    await until("the rotated secret", async () => /Secret rotated\./.test(await textOf(page)));
    const rotated = await (await byRole(page, "region", "Signing secret")).$eval("input", (el) => el.value);
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, firstSecret);
    // The receiver is down for the first attempt: the delivery fails, then is redelivered from the console.
    failures = 1;
    await clickRole(page, "button", `Send test event ${hookUrl}`);
    await until("the test event at the receiver", () => received.length >= 1, 30_000);
    await until("the failed attempt listed", async () => {
      await clickRole(page, "button", "Refresh deliveries");
      await new Promise((r) => setTimeout(r, 300));
      return /webhook\.test\s+pending\s+1\s+500/.test(await textOf(page));
    });
    const deliveryId = await page.$eval('button[aria-label^="Open delivery "]', (el) => el.getAttribute("aria-label").replace("Open delivery ", ""));
    await clickRole(page, "button", `Open delivery ${deliveryId}`);
    const detail = await byRole(page, "region", `Delivery ${deliveryId}`);
    assert.match(await detail.evaluate((el) => el.textContent), /Last status code\s*500/);
    const payload = await (await byRole(detail, "region", "Payload")).$eval("pre", (el) => el.textContent);
    assert.equal(payload, received[0].body, "the detail shows the payload byte for byte as it was sent");
    const attemptRows = await detail.$$eval("table tbody tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.deepEqual(
      attemptRows.map(([round, attempt, , code, error]) => [round, attempt, code, error]),
      [["0", "1", "500", "HTTP 500"]],
      "the failed attempt is in the attempt log",
    );
    await (await byRole(detail, "button", "Redeliver")).click();
    await until("the redelivery at the receiver", () => received.length >= 2, 30_000);
    assert.equal(received[1].headers["webhook-id"], received[0].headers["webhook-id"], "a redelivery carries the same event id");
    await until("the delivery listed as delivered", async () => {
      await clickRole(page, "button", "Refresh deliveries");
      await new Promise((r) => setTimeout(r, 300));
      return /webhook\.test\s+delivered/.test(await textOf(page));
    });
    // The status filter is applied by the API: nothing is dead, the one delivery is delivered.
    const statusFilter = await byRole(page, "combobox", "Status filter");
    await statusFilter.select("dead");
    await until("the dead filter", async () => /No deliveries match\./.test(await textOf(page)));
    await statusFilter.select("delivered");
    await until("the delivered filter", async () => /webhook\.test\s+delivered/.test(await textOf(page)));
    a11y.push(...(await axe(page, "webhooks")));

    // Team: invite a member.
    await nav(page, "Team");
    await (await byRole(page, "textbox", "E-mail")).type(member);
    await clickRole(page, "button", "Send invitation");
    await until("the invitation", async () => (await textOf(page)).includes(`Invitation sent to ${member}`));
    a11y.push(...(await axe(page, "team")));

    // The member, in a browser profile of their own: accept, sign in, see a member's console.
    const memberContext = await browser.createBrowserContext();
    const mpage = await memberContext.newPage();
    watch(mpage, problems);
    // A sign-in link works once: the owner's, opened again, is refused in the page.
    await mpage.goto(ownerLink, { waitUntil: "networkidle0" });
    const refused = await mpage.waitForSelector('::-p-aria([role="alert"])', { timeout: 15_000 });
    assert.match(await refused.evaluate((el) => el.textContent), /cannot be used.*magic_link_used/);
    assert.ok(!mpage.url().includes("token="));
    const invite = await mailLink(member, "/console/invite#invite_token=");
    await mpage.goto(invite, { waitUntil: "networkidle0" });
    a11y.push(...(await axe(mpage, "invite")));
    await clickRole(mpage, "button", "Accept the invitation");
    await until("the welcome", async () => /you joined as member/.test(await textOf(mpage)));
    await signIn(mpage, member);
    assert.match(await mpage.$eval("header", (el) => el.textContent), new RegExp(`${member.replace(/[.]/g, "\\.")} \\(member\\)`));
    await nav(mpage, "Team");
    text = await textOf(mpage);
    assert.match(text, /Your role \(member\)/);
    assert.ok(!(await mpage.$("::-p-aria([name='Send invitation'][role='button'])")), "a member cannot invite");
    assert.match(text, new RegExp(owner.replace(/[.]/g, "\\.")));
    await nav(mpage, "Webhooks");
    assert.match(await textOf(mpage), /cannot see or change them/);
    await snap(mpage, "member-webhooks");

    // Sign out: the session ends on the server too.
    await Promise.all([mpage.waitForNavigation({ waitUntil: "networkidle0" }), clickRole(mpage, "button", "Sign out")]);
    assert.match(mpage.url(), /\/console\/sign-in$/);
    const after = await mpage.evaluate(async () => (await fetch("/api/v1/auth/session")).status);
    assert.equal(after, 401, "signed out on the server");
    await mpage.goto(`${srv.base}/console/keys`, { waitUntil: "networkidle0" });
    await until("the redirect to sign-in", () => mpage.url().includes("/console/sign-in"));
    await memberContext.close();

    // The owner changes the member's role, then removes them (after confirming).
    await page.reload({ waitUntil: "networkidle0" });
    await (await byRole(page, "combobox", `Role of ${member}`)).select("admin");
    await clickRole(page, "button", `Change role of ${member}`);
    await until("the new role", async () => (await textOf(page)).includes(`${member} is now admin.`));
    await clickRole(page, "button", `Remove ${member}`);
    await clickRole(page, "button", "Remove member");
    await until("the removal", async () => (await textOf(page)).includes(`${member} removed.`));
    // The message shows before the list is drawn again: wait for the row to go.
    await until("the member is gone from the list", async () => !(await page.$(`::-p-aria([name=${JSON.stringify(`Remove ${member}`)}][role="button"])`)));

    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), clickRole(page, "button", "Sign out")]);
    assert.match(page.url(), /\/console\/sign-in$/);

    assert.deepEqual(a11y, [], "no serious or critical accessibility violations");
    assert.deepEqual(problems, [], "no script errors, CSP violations or dialogs");
    // CONSOLE_SCREENSHOTS=1 keeps the pictures of a passing run too (to look at the pages).
    if (process.env.CONSOLE_SCREENSHOTS === "1") {
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const [name, png] of shots) writeFileSync(join(ARTIFACTS, `${name}.png`), png);
    }
  } catch (err) {
    mkdirSync(ARTIFACTS, { recursive: true });
    try {
      await snap(page, "at-failure");
    } catch {
      /* the page may be gone */
    }
    for (const [name, png] of shots) writeFileSync(join(ARTIFACTS, `${name}.png`), png);
    t.diagnostic(`screenshots in ${ARTIFACTS}`);
    throw err;
  }
});
