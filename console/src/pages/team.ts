// Team: members and their roles; owners and admins invite, change roles and
// remove (the team API's rules: the last owner stays, and only an owner makes
// owners). A member sees the list only.
import { api, canManage, problemText, session } from "../api";
import { field, formatDate, h, put, status, table } from "../dom";
import { confirmDialog } from "../widgets";

const ROLES = ["owner", "admin", "member"] as const;
type Role = (typeof ROLES)[number];

function roleSelect(current: Role, label: string): HTMLSelectElement {
  const sel = h("select", { "aria-label": label }, ...ROLES.map((r) => h("option", { value: r, selected: r === current }, r)));
  return sel;
}

async function renderMembers(into: HTMLElement, note: HTMLElement): Promise<void> {
  const { data, error } = await api.GET("/api/v1/team/members");
  if (!data) {
    put(into, h("p", { role: "alert" }, problemText(error)));
    return;
  }
  const manage = canManage();
  const rows = data.data.map((m) => {
    const self = m.id === session?.user.id;
    const cells: (Node | string)[] = [m.email + (self ? " (you)" : ""), m.role, formatDate(m.created_at)];
    if (manage) {
      const sel = roleSelect(m.role, `Role of ${m.email}`);
      const change = h("button", { type: "button", "aria-label": `Change role of ${m.email}` }, "Change role");
      change.addEventListener("click", async () => {
        const { data: updated, error: e } = await api.PATCH("/api/v1/team/members/{userId}", {
          params: { path: { userId: m.id } },
          body: { role: sel.value as Role },
        });
        note.textContent = updated ? `${updated.email} is now ${updated.role}.` : problemText(e);
        await renderMembers(into, note);
      });
      const remove = h("button", { type: "button", class: "danger", "aria-label": `Remove ${m.email}` }, "Remove");
      remove.addEventListener("click", async () => {
        if (!(await confirmDialog(`Remove ${m.email} from the team?`, "Remove member"))) return;
        const { error: e } = await api.DELETE("/api/v1/team/members/{userId}", { params: { path: { userId: m.id } } });
        note.textContent = e ? problemText(e) : `${m.email} removed.`;
        await renderMembers(into, note);
      });
      cells.push(h("span", { class: "actions" }, sel, change, remove));
    }
    return cells;
  });
  put(into, table("Team members", manage ? ["E-mail", "Role", "Joined", "Actions"] : ["E-mail", "Role", "Joined"], rows));
}

export async function teamPage(main: HTMLElement): Promise<void> {
  const note = status();
  const listBox = h("div");
  if (canManage()) {
    const email = h("input", { type: "email", name: "email", required: true, autocomplete: "off" });
    const role = roleSelect("member", "Role");
    role.removeAttribute("aria-label");
    const form = h(
      "form",
      { "aria-label": "Invite a member" },
      h("h2", {}, "Invite"),
      field("E-mail", email),
      field("Role", role),
      h("button", { type: "submit" }, "Send invitation"),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const { data, error } = await api.POST("/api/v1/team/invitations", { body: { email: email.value.trim(), role: role.value as Role } });
      note.textContent = data ? `Invitation sent to ${data.email} as ${data.role}; it expires ${formatDate(data.expires_at)}.` : problemText(error);
      if (data) form.reset();
    });
    main.append(form);
  } else {
    main.append(h("p", {}, "Your role (member) can see the team; owners and admins invite and change roles."));
  }
  main.append(note, h("h2", {}, "Members"), listBox);
  await renderMembers(listBox, note);
}
