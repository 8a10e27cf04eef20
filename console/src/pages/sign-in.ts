// Sign-in: ask for a link by e-mail; the link comes back to this page as
// /console/sign-in#token=... (a fragment, so the token never reaches a server
// log), which the page redeems for a session and then forgets.
import { api, problemText, setSession, type Session } from "../api";
import { field, h, status } from "../dom";

/** Where to go after signing in: only a console path of this origin. */
function nextPath(): string {
  const next = new URLSearchParams(location.search).get("next") ?? "";
  return /^\/console(\/[a-z-]*)?$/.test(next) ? next : "/console";
}

async function redeem(main: HTMLElement, token: string): Promise<void> {
  // Drop the token from the address bar and history before anything else.
  history.replaceState(null, "", location.pathname + location.search);
  const note = status();
  note.textContent = "Signing you in...";
  main.append(note);
  const { data, error } = await api.POST("/api/v1/auth/session", { body: { token } });
  if (data) {
    setSession(data as Session);
    location.replace(nextPath());
    return;
  }
  note.setAttribute("role", "alert");
  note.textContent = `This sign-in link cannot be used: ${problemText(error)}. Ask for a new one below.`;
}

export async function signInPage(main: HTMLElement): Promise<void> {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token) await redeem(main, token);

  const email = h("input", { type: "email", name: "email", required: true, autocomplete: "email" });
  const prefill = new URLSearchParams(location.search).get("email");
  if (prefill) email.value = prefill;
  const note = status();
  const form = h(
    "form",
    { "aria-label": "Request a sign-in link" },
    h("p", {}, "Enter the e-mail address of your account. We send you a link that signs you in; it works once, for 15 minutes."),
    field("E-mail", email),
    h("button", { type: "submit" }, "Send me a sign-in link"),
    note,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    note.textContent = "Sending...";
    const { response, error } = await api.POST("/api/v1/auth/magic-link", { body: { email: email.value.trim() } });
    note.textContent =
      response.status === 202
        ? `If ${email.value.trim()} belongs to an account, a sign-in link is on its way. Open it in this browser.`
        : problemText(error, "The link could not be requested.");
  });
  main.append(form);
}
