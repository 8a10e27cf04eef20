// API keys: create one (name, permissions, scopes from the live catalog with
// their costs, a monthly budget, an expiry), see its secret once, list keys
// with their last use and budget spent, revoke with confirmation.
import { api, problemText } from "../api";
import { field, formatDate, h, put, status, table } from "../dom";
import { confirmDialog, secretOnce } from "../widgets";

const PERMISSIONS = ["read", "write", "delete", "admin"] as const;
type Permission = (typeof PERMISSIONS)[number];

async function scopePicker(): Promise<{ el: HTMLElement; chosen: () => string[] }> {
  const { data, error } = await api.GET("/api/v1/keys/scopes");
  const boxes: HTMLInputElement[] = [];
  const list = h("div", { class: "scopes" });
  for (const s of data?.data ?? []) {
    const box = h("input", { type: "checkbox", name: "scope", value: s.operation, id: `scope-${s.operation.replace(/[^a-z0-9]/gi, "-")}` });
    boxes.push(box);
    list.append(h("div", { class: "check" }, box, h("label", { for: box.id }, `${s.name}: ${s.operation} (${s.credits} credits, ${s.access})`)));
  }
  const el = h(
    "fieldset",
    {},
    h("legend", {}, "Scopes"),
    h("p", { class: "hint" }, data ? "Operations the key may run. None ticked: every operation." : problemText(error)),
    list,
  );
  return { el, chosen: () => boxes.filter((b) => b.checked).map((b) => b.value) };
}

function permissionPicker(): { el: HTMLElement; chosen: () => Permission[] } {
  const boxes = PERMISSIONS.map((p) => h("input", { type: "checkbox", name: "permission", value: p, id: `perm-${p}`, checked: p === "read" || p === "write" }));
  const el = h("fieldset", {}, h("legend", {}, "Permissions"), ...boxes.map((b) => h("span", { class: "check" }, b, h("label", { for: b.id }, b.value))));
  return { el, chosen: () => boxes.filter((b) => b.checked).map((b) => b.value as Permission) };
}

async function renderList(into: HTMLElement, note: HTMLElement): Promise<void> {
  const { data, error } = await api.GET("/api/v1/keys");
  if (!data) {
    put(into, h("p", { role: "alert" }, problemText(error)));
    return;
  }
  const rows = data.data.map((k) => {
    const revoke = k.is_active
      ? h("button", { type: "button", class: "danger", "aria-label": `Revoke ${k.name}` }, "Revoke")
      : h("span", {}, `revoked ${formatDate(k.revoked_at)}`);
    if (revoke instanceof HTMLButtonElement)
      revoke.addEventListener("click", async () => {
        if (!(await confirmDialog(`Revoke the key "${k.name}"? Calls made with it will fail at once.`, "Revoke key"))) return;
        const { error: e } = await api.DELETE("/api/v1/keys/{keyId}", { params: { path: { keyId: k.id } } });
        note.textContent = e ? problemText(e) : `Key "${k.name}" revoked.`;
        await renderList(into, note);
      });
    return [
      k.name,
      h("code", {}, k.key_prefix),
      k.permissions.join(", "),
      k.scopes.length === 0 || k.scopes.includes("*") ? "all" : k.scopes.join(", "),
      k.credit_limit === null ? `${k.credits_used} (no budget)` : `${k.credits_used} of ${k.credit_limit}`,
      formatDate(k.created_at),
      // Recorded at most every few minutes by the API, so it is "about then", not to the second.
      formatDate(k.last_used_at),
      k.expires_at ? formatDate(k.expires_at) : "never",
      revoke,
    ];
  });
  put(
    into,
    rows.length
      ? table("Your API keys", ["Name", "Prefix", "Permissions", "Scopes", "Credits this month", "Created", "Last used", "Expires", "Action"], rows)
      : h("p", {}, "No keys yet."),
  );
}

export async function keysPage(main: HTMLElement): Promise<void> {
  const note = status();
  const listBox = h("div");
  const secretBox = h("div");
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 100, autocomplete: "off" });
  const budget = h("input", { type: "number", name: "credit_limit", min: 0, step: 1, inputmode: "numeric" });
  const expiry = h("input", { type: "number", name: "expires_in_days", min: 1, max: 3650, step: 1, inputmode: "numeric" });
  const perms = permissionPicker();
  const scopes = await scopePicker();
  const form = h(
    "form",
    { "aria-label": "Create an API key" },
    h("h2", {}, "Create a key"),
    field("Name", name),
    perms.el,
    scopes.el,
    field("Monthly budget (credits)", budget, "Credits the key may spend per calendar month; empty for no limit."),
    field("Expires in (days)", expiry, "Empty: the key does not expire."),
    h("button", { type: "submit" }, "Create key"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    note.textContent = "Creating...";
    const { data, error } = await api.POST("/api/v1/keys", {
      body: {
        name: name.value.trim(),
        permissions: perms.chosen(),
        scopes: scopes.chosen(),
        credit_limit: budget.value === "" ? null : Number(budget.value),
        ...(expiry.value === "" ? {} : { expires_in_days: Number(expiry.value) }),
      },
    });
    if (!data) {
      note.textContent = problemText(error, "The key could not be created.");
      return;
    }
    note.textContent = `Key "${data.name}" created.`;
    put(secretBox, data.api_key ? secretOnce("API key", data.api_key) : null);
    form.reset();
    await renderList(listBox, note);
  });
  main.append(form, note, secretBox, h("h2", {}, "Keys"), listBox);
  await renderList(listBox, note);
}
