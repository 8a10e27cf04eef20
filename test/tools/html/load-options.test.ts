import { expect } from "vitest";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { pageTexts } from "../../support/pdf-text";
import { toPdf } from "./helpers";

const text = async (fields: Parameters<typeof toPdf>[0]) => (await pageTexts((await toPdf(fields)).pdf)).join("\n");

describeWithBrowser("HTML to PDF: waiting, media, ads and popups", () => {
  itWithBrowser("emulated_media screen renders the screen styles; print is the default", async () => {
    const html =
      "<style>@media screen { .p { display: none } } @media print { .s { display: none } }</style><p class='s'>SCREENONLY</p><p class='p'>PRINTONLY</p>";
    const printed = await text({ html });
    expect(printed).toContain("PRINTONLY");
    expect(printed).not.toContain("SCREENONLY");
    const screen = await text({ html, emulated_media: "screen" });
    expect(screen).toContain("SCREENONLY");
    expect(screen).not.toContain("PRINTONLY");
  });

  const LATE =
    "<div id='out'>early</div><script>setTimeout(() => { document.getElementById('out').innerHTML = '<p id=late>LATECONTENT</p>'; window.ready = true; }, 700)</script>";

  itWithBrowser("without a wait, content added after load is missing", async () => {
    expect(await text({ html: LATE })).not.toContain("LATECONTENT");
  });

  itWithBrowser("wait_for_selector waits for the element", async () => {
    expect(await text({ html: LATE, wait_for_selector: "#late" })).toContain("LATECONTENT");
  });

  itWithBrowser("wait_for_expression waits until the expression is true", async () => {
    expect(await text({ html: LATE, wait_for_expression: "window.ready === true" })).toContain("LATECONTENT");
  });

  itWithBrowser("wait_delay waits the given milliseconds after load", async () => {
    expect(await text({ html: LATE, wait_delay: "1500" })).toContain("LATECONTENT");
  });

  const ADS = "<p>article</p><ins class='adsbygoogle'>ADSLOTTEXT</ins><div data-ad-slot='1'>SLOTTWO</div>";

  itWithBrowser("block_ads hides ad slots (and aborts ad-network requests); off by default", async () => {
    const shown = await text({ html: ADS });
    expect(shown).toContain("ADSLOTTEXT");
    const blocked = await text({ html: ADS, block_ads: "true" });
    expect(blocked).toContain("article");
    expect(blocked).not.toContain("ADSLOTTEXT");
    expect(blocked).not.toContain("SLOTTWO");
  });

  const POPUPS = `<p>the article</p>
    <div style="position:fixed;bottom:0;left:0;right:0;z-index:9999;background:#fff">COOKIEBAR accept all</div>
    <div id="onetrust-banner-sdk">ONETRUST</div>
    <div style="position:fixed;inset:10%;z-index:500;background:#fff">MODALBOX subscribe</div>
    <header style="position:fixed;top:0;height:20px;z-index:1">SITEHEADER</header>
    <script>document.body.style.overflow = "hidden"</script>`;

  itWithBrowser("remove_popups removes cookie banners and high z-index overlays, keeps the page and a low header", async () => {
    const shown = await text({ html: POPUPS });
    expect(shown).toContain("COOKIEBAR");
    const cleaned = await text({ html: POPUPS, remove_popups: "true" });
    expect(cleaned).toContain("the article");
    expect(cleaned).toContain("SITEHEADER");
    for (const gone of ["COOKIEBAR", "ONETRUST", "MODALBOX"]) expect(cleaned).not.toContain(gone);
  });
});
