// Webhooks: create an endpoint (URL, events from the catalog), enable or
// disable it, rotate its secret (shown once), send a test event, and read its
// deliveries (filtered by status on the server, open one with its payload,
// redeliver it).
import type { operations } from "../../../clients/typescript/src/index";
import { api, canManage, problemText } from "../api";
import { field, formatDate, h, put, status, table } from "../dom";
import { confirmDialog, secretOnce } from "../widgets";

type Endpoint = NonNullable<Awaited<ReturnType<typeof listEndpoints>>>[number];
type Delivery = operations["getWebhookDelivery"]["responses"][200]["content"]["application/json"];
const STATUSES = ["pending", "delivered", "dead"] as const satisfies readonly Delivery["status"][];

async function listEndpoints() {
  const { data } = await api.GET("/api/v1/webhooks");
  return data?.data;
}

async function eventPicker(): Promise<{ el: HTMLElement; chosen: () => string[] }> {
  const { data, error } = await api.GET("/api/v1/webhooks/event-types");
  const boxes: HTMLInputElement[] = [];
  const list = h("div", { class: "scopes" });
  for (const ev of data?.data ?? []) {
    const box = h("input", { type: "checkbox", name: "event", value: ev.event, id: `event-${ev.event.replace(/[^a-z0-9]/gi, "-")}` });
    boxes.push(box);
    list.append(h("div", { class: "check" }, box, h("label", { for: box.id }, `${ev.event}: ${ev.description}${ev.tier === "pro" ? " (paid plans)" : ""}`)));
  }
  const el = h("fieldset", {}, h("legend", {}, "Events"), data ? null : h("p", { role: "alert" }, problemText(error)), list);
  return { el, chosen: () => boxes.filter((b) => b.checked).map((b) => b.value) };
}

function deliveryDetail(into: HTMLElement, endpoint: Endpoint, d: Delivery, refresh: () => Promise<void>, note: HTMLElement): void {
  const redeliver = h("button", { type: "button" }, "Redeliver");
  redeliver.addEventListener("click", async () => {
    const { data, error } = await api.POST("/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
      params: { path: { id: endpoint.id, deliveryId: d.id } },
    });
    note.textContent = data ? `Delivery ${d.id} queued again (redelivery ${data.redeliveries}).` : problemText(error);
    await refresh();
  });
  const facts: [string, string][] = [
    ["Event", d.event],
    ["Event id", d.event_id],
    ["Status", d.status],
    ["Attempts", String(d.attempts)],
    ["Redeliveries", String(d.redeliveries)],
    ["Last status code", d.last_status_code === null ? "none" : String(d.last_status_code)],
    ["Last error", d.last_error ?? "none"],
    ["Created", formatDate(d.created_at)],
    ["Last attempt", formatDate(d.last_attempt_at)],
    ["Next attempt", formatDate(d.next_attempt_at)],
    ["Delivered", formatDate(d.delivered_at)],
  ];
  const dl = h("dl", { class: "facts" });
  for (const [k, v] of facts) dl.append(h("dt", {}, k), h("dd", {}, v));
  // The payload is shown as the exact text that was signed (a text node, never parsed into markup);
  // the <pre> is focusable so a keyboard can scroll a long body.
  const payload = h("section", { "aria-label": "Payload" }, h("h5", {}, "Payload (the body as sent and signed)"), h("pre", { tabindex: "0" }, d.payload));
  const history = d.attempt_log.length
    ? table(
        "Attempts",
        ["Round", "Attempt", "Sent", "Status code", "Error", "Took"],
        d.attempt_log.map((a) => [
          String(a.round),
          String(a.attempt),
          formatDate(a.sent_at),
          a.status_code === null ? "none" : String(a.status_code),
          a.error ?? "",
          `${a.duration_ms} ms`,
        ]),
      )
    : h("p", {}, "No attempt has reported an outcome yet.");
  // The API redelivers a dead delivery or a pending one whose last attempt failed; a delivered one is done.
  put(
    into,
    h("section", { "aria-label": `Delivery ${d.id}` }, h("h4", {}, `Delivery ${d.id}`), dl, history, payload, d.status === "delivered" ? null : redeliver),
  );
}

async function openDelivery(into: HTMLElement, endpoint: Endpoint, id: string, refresh: () => Promise<void>, note: HTMLElement): Promise<void> {
  const { data, error } = await api.GET("/api/v1/webhooks/{id}/deliveries/{deliveryId}", { params: { path: { id: endpoint.id, deliveryId: id } } });
  if (!data) {
    put(into, h("p", { role: "alert" }, problemText(error)));
    return;
  }
  deliveryDetail(into, endpoint, data, refresh, note);
}

async function deliveries(into: HTMLElement, endpoint: Endpoint, note: HTMLElement): Promise<void> {
  const filter = h("select", { name: "status" }, ...["all", ...STATUSES].map((s) => h("option", { value: s }, s)));
  const listBox = h("div");
  const detail = h("div");
  const refresh = async () => {
    // The API filters (?status=), so the newest 100 of the chosen state are shown, not a filtered slice of the newest 100.
    const chosen = STATUSES.find((s) => s === filter.value);
    const { data, error } = await api.GET("/api/v1/webhooks/{id}/deliveries", {
      params: { path: { id: endpoint.id }, query: { limit: 100, ...(chosen ? { status: chosen } : {}) } },
    });
    if (!data) {
      put(listBox, h("p", { role: "alert" }, problemText(error)));
      return;
    }
    const rows = data.data.map((d) => {
      const open = h("button", { type: "button", "aria-label": `Open delivery ${d.id}` }, "Open");
      open.addEventListener("click", () => void openDelivery(detail, endpoint, d.id, refresh, note));
      return [
        d.event,
        d.status,
        String(d.attempts),
        d.last_status_code === null ? "" : String(d.last_status_code),
        d.last_error ?? "",
        formatDate(d.created_at),
        open,
      ];
    });
    put(
      listBox,
      rows.length
        ? table(`Deliveries to ${endpoint.url}`, ["Event", "Status", "Attempts", "Last code", "Last error", "Created", "Detail"], rows)
        : h("p", {}, "No deliveries match."),
    );
  };
  filter.addEventListener("change", () => void refresh());
  const reload = h("button", { type: "button" }, "Refresh deliveries");
  reload.addEventListener("click", () => void refresh());
  put(into, h("h3", {}, `Deliveries of ${endpoint.url}`), field("Status filter", filter), reload, listBox, detail);
  await refresh();
}

function endpointRow(e: Endpoint, secretBox: HTMLElement, deliveriesBox: HTMLElement, note: HTMLElement, rerender: () => Promise<void>): HTMLElement[] {
  const act = (label: string, name: string, run: () => Promise<void>) => {
    const b = h("button", { type: "button", "aria-label": `${label} ${name}` }, label);
    b.addEventListener("click", () => void run());
    return b;
  };
  const toggle = act(e.active ? "Disable" : "Enable", e.url, async () => {
    const { error } = await api.PATCH("/api/v1/webhooks/{id}", { params: { path: { id: e.id } }, body: { active: !e.active } });
    note.textContent = error ? problemText(error) : `Endpoint ${e.active ? "disabled" : "enabled"}.`;
    await rerender();
  });
  const rotate = act("Rotate secret", e.url, async () => {
    if (!(await confirmDialog(`Rotate the signing secret of ${e.url}? The old one keeps signing for a day.`, "Rotate secret"))) return;
    const { data, error } = await api.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id: e.id } } });
    note.textContent = data ? "Secret rotated." : problemText(error);
    put(secretBox, data?.secret ? secretOnce("Signing secret", data.secret) : null);
  });
  const test = act("Send test event", e.url, async () => {
    const { data, error } = await api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id: e.id } } });
    note.textContent = data ? `Test event sent (delivery ${data.delivery_id}).` : problemText(error);
    await deliveries(deliveriesBox, e, note);
  });
  const show = act("Show deliveries", e.url, () => deliveries(deliveriesBox, e, note));
  const state = e.active ? "enabled" : `disabled${e.disabled_reason ? ` (${e.disabled_reason})` : ""}`;
  return [h("span", {}, e.url), h("span", {}, e.events.join(", ")), h("span", {}, state), h("span", { class: "actions" }, toggle, rotate, test, show)];
}

export async function webhooksPage(main: HTMLElement): Promise<void> {
  const note = status();
  const secretBox = h("div");
  const listBox = h("div");
  const deliveriesBox = h("section", { "aria-label": "Deliveries" });
  const manage = canManage();
  const rerender = async () => {
    const list = await listEndpoints();
    if (!list) {
      put(listBox, h("p", { role: "alert" }, "The endpoints could not be loaded."));
      return;
    }
    put(
      listBox,
      list.length
        ? table(
            "Webhook endpoints",
            ["URL", "Events", "State", "Actions"],
            list.map((e) => endpointRow(e, secretBox, deliveriesBox, note, rerender)),
          )
        : h("p", {}, "No endpoints yet."),
    );
  };
  if (manage) {
    const url = h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/webhooks" });
    const description = h("input", { type: "text", name: "description", maxlength: 300 });
    const events = await eventPicker();
    const form = h(
      "form",
      { "aria-label": "Create a webhook endpoint" },
      h("h2", {}, "Add an endpoint"),
      field("Endpoint URL", url),
      field("Description", description),
      events.el,
      h("button", { type: "submit" }, "Add endpoint"),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const { data, error } = await api.POST("/api/v1/webhooks", {
        body: { url: url.value.trim(), events: events.chosen(), ...(description.value ? { description: description.value } : {}) },
      });
      if (!data) {
        note.textContent = problemText(error, "The endpoint could not be created.");
        return;
      }
      note.textContent = `Endpoint ${data.url} added.`;
      put(secretBox, data.secret ? secretOnce("Signing secret", data.secret) : null);
      form.reset();
      await rerender();
    });
    main.append(form);
  } else {
    // The webhooks API answers owners and admins only (manage_webhooks).
    main.append(h("p", {}, "Webhooks are managed by the account's owners and admins; your role (member) cannot see or change them."));
    return;
  }
  main.append(note, secretBox, h("h2", {}, "Endpoints"), listBox, deliveriesBox);
  await rerender();
}
