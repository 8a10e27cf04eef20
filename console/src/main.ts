// The console's entry: finds the session, draws the shell (banner, navigation,
// main, footer) and the page its path names. Each page is a URL of its own
// (/console/keys ...), loaded fully, so links, the back button and a reload
// behave as on any website.
import { api, session, setSession, type Session } from "./api";
import { h, put } from "./dom";
import { invitePage } from "./pages/invite";
import { keysPage } from "./pages/keys";
import { overviewPage } from "./pages/overview";
import { playgroundPage } from "./pages/playground";
import { signInPage } from "./pages/sign-in";
import { teamPage } from "./pages/team";
import { webhooksPage } from "./pages/webhooks";

type Page = (main: HTMLElement) => Promise<void> | void;
const PAGES: Record<string, { title: string; render: Page }> = {
  "": { title: "Overview", render: overviewPage },
  keys: { title: "API keys", render: keysPage },
  webhooks: { title: "Webhooks", render: webhooksPage },
  team: { title: "Team", render: teamPage },
  playground: { title: "Playground", render: playgroundPage },
};
/** Pages for people without a session. */
const OPEN_PAGES: Record<string, { title: string; render: Page }> = {
  "sign-in": { title: "Sign in", render: signInPage },
  invite: { title: "Accept an invitation", render: invitePage },
};

const pageName = (): string => location.pathname.replace(/^\/console\/?/, "").replace(/\/$/, "");

function nav(current: string): HTMLElement {
  const list = h("ul");
  for (const [name, page] of Object.entries(PAGES)) {
    const link = h("a", { href: name ? `/console/${name}` : "/console" }, page.title);
    if (name === current) link.setAttribute("aria-current", "page");
    list.append(h("li", {}, link));
  }
  return h("nav", { "aria-label": "Console" }, list);
}

async function signOut(): Promise<void> {
  await api.DELETE("/api/v1/auth/session");
  setSession(null);
  location.assign("/console/sign-in");
}

function shell(name: string, title: string): HTMLElement {
  const main = h("main", { id: "main", tabindex: "-1" });
  const who = session ? h("p", { class: "who" }, `${session.user.email} (${session.user.role}) · ${session.account.name}`) : null;
  const out = session ? h("button", { type: "button", onclick: () => void signOut() }, "Sign out") : null;
  const header = h(
    "header",
    {},
    h("a", { class: "skip", href: "#main" }, "Skip to content"),
    h("p", { class: "brand" }, "Document Processing API · Console"),
    who,
    out,
    session ? nav(name) : null,
  );
  const footer = h(
    "footer",
    {},
    h("a", { href: "/docs" }, "API reference (/docs)"),
    " · ",
    h("a", { href: "/console/client/README.md" }, "TypeScript client README"),
    " · ",
    h("a", { href: "/openapi.json" }, "OpenAPI document"),
  );
  put(document.body, header, main, footer);
  document.title = `${title} · Console`;
  main.append(h("h1", {}, title));
  return main;
}

async function start(): Promise<void> {
  const name = pageName();
  const open = OPEN_PAGES[name];
  if (open) {
    await open.render(shell(name, open.title));
    return;
  }
  const page = PAGES[name];
  const { data, response } = await api.GET("/api/v1/auth/session");
  if (!data || response.status === 401) {
    location.replace(`/console/sign-in${name ? `?next=${encodeURIComponent(`/console/${name}`)}` : ""}`);
    return;
  }
  setSession(data as Session);
  if (!page) {
    const main = shell(name, "Page not found");
    main.append(h("p", {}, "There is no such console page. "), h("a", { href: "/console" }, "Go to the overview"));
    return;
  }
  await page.render(shell(name, page.title));
}

start().catch((err: unknown) => {
  put(document.body, h("main", { id: "main" }, h("h1", {}, "The console could not start"), h("p", { role: "alert" }, String(err))));
});
