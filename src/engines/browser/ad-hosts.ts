// block_ads (docs/tools/html-to-pdf.md: best effort): requests to these hosts, or any subdomain
// of them, are aborted before they leave the browser. A short list of the
// ad-serving and tracking networks that account for most ad requests on
// ordinary pages (drawn from the EasyList and Peter Lowe's ad server lists);
// it is no full blocker, and cosmetic CSS hides the usual empty ad slots.

const AD_HOSTS = new Set([
  "doubleclick.net",
  "googlesyndication.com",
  "googleadservices.com",
  "googletagservices.com",
  "adservice.google.com",
  "pagead2.googlesyndication.com",
  "amazon-adsystem.com",
  "adnxs.com",
  "adsrvr.org",
  "advertising.com",
  "criteo.com",
  "criteo.net",
  "taboola.com",
  "outbrain.com",
  "pubmatic.com",
  "rubiconproject.com",
  "openx.net",
  "casalemedia.com",
  "moatads.com",
  "scorecardresearch.com",
  "quantserve.com",
  "media.net",
  "yieldmo.com",
  "smartadserver.com",
  "adform.net",
  "sharethrough.com",
  "teads.tv",
  "bidswitch.net",
  "zedo.com",
  "popads.net",
  "propellerads.com",
  "revcontent.com",
  "mgid.com",
]);

export function isAdHost(hostname: string): boolean {
  const labels = hostname.toLowerCase().replace(/\.$/, "").split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    if (AD_HOSTS.has(labels.slice(i).join("."))) return true;
  }
  return false;
}

const AD_SLOTS = [
  "ins.adsbygoogle",
  "[id^='google_ads_']",
  "[id^='div-gpt-ad']",
  "iframe[src*='doubleclick.net']",
  "iframe[src*='googlesyndication.com']",
  ".adsbygoogle",
  ".ad-slot",
  ".ad-banner",
  "[data-ad-slot]",
];

/** Hides the slots ad scripts would have filled, so blocked ads leave no framed gaps. */
export const AD_SLOT_CSS = `${AD_SLOTS.join(",")}{display:none!important}`;
