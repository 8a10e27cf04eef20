import { expect } from "vitest";
import { beaconHits, describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { pageTexts, squash } from "../../support/pdf-text";
import { caller, toPdf } from "./helpers";

// Browsers are pooled and reused by every tenant (session.ts), so each
// render gets a browser context of its own: what one account's page leaves
// behind (cookies, localStorage, the HTTP cache) is gone for the next
// account's render on the same browser. The renders run one after another, so
// the second one takes over the browser the first one released.

// Digits only: Chromium draws "ff" or "fi" of a hex value as one ligature glyph, which the text reader gives back as such.
const value = (prefix: string) => `${prefix}${crypto.randomUUID().replace(/\D/g, "")}`;

const text = async (fields: Parameters<typeof toPdf>[0], key: string) => (await pageTexts((await toPdf(fields, key)).pdf)).join("\n");

describeWithBrowser("HTML to PDF: tenants never share a browser's state", () => {
  itWithBrowser("account B's page sees none of the cookies and localStorage account A's page set", async () => {
    const [a, b] = [await caller(), await caller()];
    const secret = value("secret");
    // The page sets a cookie by Set-Cookie and by document.cookie, and a localStorage entry.
    expect(await text({ url: `${pageServer()}/set-state/${secret}`, wait_delay: "100" }, a.key)).toContain(`state set ${secret}`);

    const shown = await text({ url: `${pageServer()}/show-state` }, b.key);
    expect(squash(shown)).toContain("requestcookies[]");
    expect(squash(shown)).toContain("documentcookies[]localstorage[]");
    expect(shown).not.toContain(secret);
  });

  itWithBrowser("within one render the page's cookies still work: set by one response, sent with the next request", async () => {
    const acc = await caller();
    const own = value("own");
    // A frame loads the page that sets the state, then the page moves on to the one that prints it: one render, one context.
    const js = `const f = document.createElement("iframe"); f.src = "/set-state/${own}"; f.onload = () => { location.href = "/show-state"; }; document.body.append(f);`;
    const shown = await text(
      {
        url: `${pageServer()}/script?js=${encodeURIComponent(js)}`,
        wait_for_expression: "location.pathname === '/show-state' && !!document.getElementById('js')",
      },
      acc.key,
    );
    // Line breaks of the PDF's text do not matter.
    expect(squash(shown)).toContain(squash(`request cookies [http_cookie=${own}; js_cookie=${own}]`));
    expect(squash(shown)).toContain(squash(`local storage [stored=${own}]`));
  });

  itWithBrowser("a resource account A's page cached (Cache-Control max-age) is fetched again for account B", async () => {
    const [a, b] = [await caller(), await caller()];
    const token = `cached-${crypto.randomUUID()}`;
    const page = `${pageServer()}/embed?src=${encodeURIComponent(`/cached/${token}`)}`;
    await toPdf({ url: page }, a.key);
    expect(await beaconHits(token)).toBe(1);
    await toPdf({ url: page }, b.key);
    expect(await beaconHits(token)).toBe(2);
  });
});
