import type { Answer } from "./api.ts";
import { bound, h, table } from "./dom.ts";
import { act, type View } from "./page.ts";

// The Keys & credits view: every key with its credits, creating a key, granting credits.

type Key = Answer<"keys", "list">["keys"][number];
const KINDS = ["partner", "tenant", "legacy"] as const;

export const keysView: View = async (page) => {
  const { keys } = await page.control.keys.list();
  const kind = h(
    "select",
    {},
    KINDS.map((k) => h("option", { value: k }, k)),
  );
  const grant = (k: Key) => {
    page.grants[k.key] ??= "1000";
    const amount = bound(
      page.grants,
      k.key,
      h("input", { type: "number", min: "1", class: "narrow", "data-testid": `grant-amount-${k.name ?? k.label}` }),
    );
    return [
      amount,
      act(
        page,
        "Grant",
        () => page.control.credits.add({ key: k.key, credits: Number(amount.value) }),
        `grant-${k.name ?? k.label}`,
      ),
    ];
  };
  return [
    h(
      "div",
      { class: "actions" },
      kind,
      act(
        page,
        "Create key",
        () => page.control.keys.add({ kind: kind.value as (typeof KINDS)[number] }),
        "create-key",
      ),
    ),
    table(
      [
        "name",
        "kind",
        "label",
        "account",
        "scopes",
        "balance",
        "free",
        "purchased",
        "used this month",
        "calls this month",
        "grant credits",
      ],
      keys.map((k) =>
        h(
          "tr",
          { "data-testid": "key-row", "data-name": k.name ?? k.label },
          h("td", {}, k.name ?? ""),
          h("td", {}, k.kind),
          h("td", {}, k.label),
          h("td", {}, k.account_id),
          h("td", { class: "muted" }, k.scopes.join(" ")),
          h("td", { "data-testid": "balance" }, k.balance ?? "—"),
          h("td", {}, k.free_credits ?? "—"),
          h("td", { "data-testid": "purchased" }, k.purchased_credits ?? "—"),
          h("td", {}, k.credits_used_this_month ?? "—"),
          h("td", {}, k.requests_this_month ?? "—"),
          h("td", {}, k.balance === undefined ? "" : grant(k)),
        ),
      ),
    ),
  ];
};
