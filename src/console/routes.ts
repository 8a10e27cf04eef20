import { z } from "zod";
import { CLIENT_README, CONSOLE_SCRIPT, CONSOLE_STYLE } from "../../console/dist/bundle";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { sendText, staticTextRoute } from "../http/static-text";

// /console: the account owner's web console, served by this Worker like /docs.
// Its script and style are built from console/src at install time
// (scripts/console-build.mjs) and served as files of their own, so the
// policy below forbids inline script and style. Every page is the same shell;
// the script draws the page its path names and calls the API through the
// typed client in clients/typescript.

const SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console · Document Processing API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,"><link rel="stylesheet" href="/console/app.css"><script type="module" src="/console/app.js"></script>
</head><body><main id="main"><h1>Console</h1><p>Loading...</p>
<noscript><p>The console needs JavaScript. The API itself is documented at <a href="/docs">/docs</a>.</p></noscript></main></body></html>`;

/** Console pages other than the overview; anything else under /console is 404. */
export const CONSOLE_PAGES = ["sign-in", "invite", "keys", "webhooks", "team", "playground"] as const;

const tags = ["console"];

const serve = (id: string, path: string, summary: string, media: string, text: string, redirectsFrom?: string[]) =>
  staticTextRoute(id, path, tags, summary, media, text, redirectsFrom);

const page = defineRoute({
  id: "getConsolePage",
  method: "get",
  path: "/console/{page}",
  tags,
  summary: "A page of the console",
  auth: "public",
  params: z.object({ page: z.string().describe(`One of: ${CONSOLE_PAGES.join(", ")}.`) }),
  responses: { 200: { description: "The console's page shell", media: "text/html" } },
  problems: ["not_found"],
  handler: (c, { params }) => {
    if (!(CONSOLE_PAGES as readonly string[]).includes(params.page)) throw new ApiError("not_found", `No console page ${params.page}.`);
    return sendText(c, "text/html", SHELL);
  },
});

export const CONSOLE_ROUTES = [
  // People type the page with a trailing slash.
  serve("getConsole", "/console", "The web console (overview)", "text/html", SHELL, ["/console/"]),
  serve("getConsoleScript", "/console/app.js", "The console's script", "text/javascript", CONSOLE_SCRIPT),
  serve("getConsoleStyle", "/console/app.css", "The console's style", "text/css", CONSOLE_STYLE),
  serve("getClientReadme", "/console/client/README.md", "The TypeScript client's README", "text/markdown", CLIENT_README),
  page,
];
