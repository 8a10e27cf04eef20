// An invitation link (/console/invite#invite_token=..., sent by the team API)
// lands here: accepting it creates the member's user, who then signs in with
// an e-mail link like everyone else.
import { api, problemText } from "../api";
import { h, status } from "../dom";

export async function invitePage(main: HTMLElement): Promise<void> {
  const token = new URLSearchParams(location.hash.slice(1)).get("invite_token");
  history.replaceState(null, "", location.pathname);
  const note = status();
  main.append(note);
  if (!token) {
    note.textContent = "This page needs the link from your invitation e-mail.";
    return;
  }
  const accept = h("button", { type: "button" }, "Accept the invitation");
  main.append(h("p", {}, "You were invited to join a team on the Document Processing API."), accept);
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    const { data, error } = await api.POST("/api/v1/team/invitations/accept", { body: { invite_token: token } });
    if (!data) {
      note.setAttribute("role", "alert");
      note.textContent = problemText(error, "The invitation could not be accepted.");
      return;
    }
    note.textContent = `Welcome, ${data.user.email}: you joined as ${data.user.role}.`;
    main.append(h("p", {}, h("a", { href: `/console/sign-in?email=${encodeURIComponent(data.user.email)}` }, "Sign in to the console")));
  });
}
