// Pieces several pages share: a secret shown once with a copy button, and a
// confirmation dialog (a native <dialog>, which traps focus and closes on
// Escape).
import { h } from "./dom";

/** A secret shown once: read-only field, copy button, and the warning that it will not be shown again. */
export function secretOnce(label: string, secret: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value: secret, id: `secret-${Date.now()}`, class: "secret", spellcheck: "false" });
  const done = h("span", { role: "status" });
  const copy = h("button", { type: "button" }, `Copy ${label.toLowerCase()}`);
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(secret);
      done.textContent = "Copied.";
    } catch {
      // Clipboard access can be refused (insecure origin, permissions): the text stays selected to copy by hand.
      done.textContent = "Select the text and copy it by hand.";
    }
  });
  return h(
    "div",
    { class: "secret-once", role: "region", "aria-label": label },
    h("p", { class: "warn" }, `${label}: shown once. Store it now; it cannot be shown again.`),
    h("label", { for: input.id }, label),
    input,
    copy,
    done,
  );
}

/** Asks a yes/no question in a modal dialog; resolves true on the confirming button. */
export function confirmDialog(question: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const title = h("h2", { id: `dlg-${Date.now()}` }, question);
    const yes = h("button", { type: "button", class: "danger" }, confirmLabel);
    const no = h("button", { type: "button" }, "Cancel");
    const dlg = h("dialog", { "aria-labelledby": title.id }, title, h("div", { class: "actions" }, yes, no));
    const close = (answer: boolean) => {
      dlg.close();
      dlg.remove();
      resolve(answer);
    };
    yes.addEventListener("click", () => close(true));
    no.addEventListener("click", () => close(false));
    dlg.addEventListener("cancel", () => close(false));
    document.body.append(dlg);
    dlg.showModal();
    no.focus();
  });
}
