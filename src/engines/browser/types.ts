import type { Asset } from "./network";

/** What to render: markup (with uploaded assets beside it) or a URL. */
export type RenderSource = { kind: "markup"; html: string; assets?: ReadonlyMap<string, Asset> } | { kind: "url"; url: string };

/** How the page is loaded before it is printed or captured. */
export interface LoadOptions {
  /** Viewport width in CSS px (docs/tools/html-to-pdf.md: screen_width). */
  screenWidth?: number;
  screenHeight?: number;
  blockAds?: boolean;
  removePopups?: boolean;
  /** CSS media type while loading and printing; Chromium prints with "print" unless told otherwise. */
  emulatedMedia?: "print" | "screen";
  waitDelayMs?: number;
  waitForSelector?: string;
  waitForExpression?: string;
  /** A url source whose document answers 4xx/5xx fails with 422. */
  failOnHttpStatus?: boolean;
}
