// Overview: plan and balance, and the current month's usage by day (chart and
// table), by tool and by key, from GET /api/v1/usage (the credit ledger).
import { api, problemText } from "../api";
import { barChart, shareChart } from "../chart";
import { h, table } from "../dom";

type GroupBy = "day" | "tool" | "key";

async function usage(groupBy: GroupBy) {
  return api.GET("/api/v1/usage", { params: { query: { group_by: groupBy } } });
}

export async function overviewPage(main: HTMLElement): Promise<void> {
  const [account, byDay, byTool, byKey] = await Promise.all([api.GET("/api/v1/account"), usage("day"), usage("tool"), usage("key")]);
  if (account.data) {
    const a = account.data;
    main.append(
      h(
        "section",
        { "aria-labelledby": "acct" },
        h("h2", { id: "acct" }, "Account"),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Account"),
          h("dd", {}, a.name),
          h("dt", {}, "Plan"),
          h("dd", {}, a.plan),
          h("dt", {}, "Balance"),
          h("dd", { id: "balance" }, `${a.balance} credits`),
        ),
      ),
    );
  } else main.append(h("p", { role: "alert" }, problemText(account.error)));

  const section = h("section", { "aria-labelledby": "usage" }, h("h2", { id: "usage" }, "Usage this month"));
  main.append(section);
  if (!byDay.data) {
    section.append(h("p", { role: "alert" }, problemText(byDay.error, "Usage could not be loaded.")));
    return;
  }
  const u = byDay.data;
  section.append(
    h("p", { id: "usage-total" }, `${u.total_credits} credits in ${u.total_calls} call${u.total_calls === 1 ? "" : "s"} from ${u.from} to ${u.to}.`),
  );
  // Day rows cover the whole month, zeros included (the usage API's answer), so the chart has a bar a day.
  section.append(
    barChart(
      "Credits by day",
      u.rows.map((r) => ({ label: r.key, value: r.credits })),
      "credits",
    ),
  );
  const withUse = u.rows.filter((r) => r.calls > 0);
  section.append(
    withUse.length
      ? table(
          "Usage by day",
          ["Day", "Calls", "Credits"],
          withUse.map((r) => [r.key, String(r.calls), String(r.credits)]),
        )
      : h("p", {}, "No calls this month yet."),
  );
  for (const [caption, res, head] of [
    ["Usage by tool", byTool, "Tool"],
    ["Usage by API key", byKey, "Key"],
  ] as const) {
    if (!res.data) section.append(h("p", { role: "alert" }, problemText(res.error)));
    else if (res.data.rows.length) {
      const rows = res.data.rows;
      section.append(
        h("h3", {}, caption),
        shareChart(
          `Credits by ${head.toLowerCase()}`,
          rows.map((r) => ({ label: r.label ?? r.key, value: r.credits })),
          "credits",
        ),
        table(
          caption,
          [head, "Calls", "Credits"],
          rows.map((r) => [r.label ?? r.key, String(r.calls), String(r.credits)]),
        ),
      );
    }
  }
}
