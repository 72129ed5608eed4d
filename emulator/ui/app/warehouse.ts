import { h, table } from "./dom.ts";
import { act, type View } from "./page.ts";
import { rowButtons } from "./row-buttons.ts";

// The Warehouse view: per tenant its cards, orders, inbound shipments, withdrawals and exceptions. The order,
// inbound shipment and withdrawal rows' buttons are their lifecycle tables' (row-buttons.ts).

export const warehouseView: View = async (page) => {
  const c = page.control;
  const { tenants } = await c.warehouse.get();
  const out = [];
  for (const t of tenants) {
    out.push(
      h("h2", {}, `Tenant ${t.account_id}`),
      h(
        "p",
        { class: "muted" },
        "Cards: ",
        Object.entries(t.cards)
          .map(([s, n]) => `${s} ${n}`)
          .join(" · ") || "none",
      ),
      h(
        "div",
        { class: "actions" },
        act(
          page,
          "Fail next label",
          () => c.warehouse.labelsFailNext({ account_id: t.account_id }),
          `fail-label-${t.account_id}`,
        ),
        act(
          page,
          "Close billing month",
          () => c.warehouse.billingClose({ account_id: t.account_id }),
          `close-month-${t.account_id}`,
        ),
      ),
      h("h3", {}, "Orders"),
      table(
        ["order", "status", "cards", "carrier", "tracking", "updated", ""],
        t.orders.map((o) =>
          h(
            "tr",
            { "data-testid": "order-row", "data-id": o.order_id, "data-status": o.status },
            h("td", {}, o.order_id),
            h("td", {}, o.status),
            h("td", {}, o.unique_ids.length),
            h("td", {}, o.carrier ?? ""),
            h("td", {}, o.tracking_number ?? ""),
            h("td", {}, o.updated_at),
            h(
              "td",
              {},
              rowButtons(page, "warehouse-order", o, o.order_id, "order-"),
              // Not a move of the order table (the order stays RETURNED): its cards come back into inventory.
              o.status === "RETURNED"
                ? act(
                    page,
                    "scan-back",
                    () => c.warehouse.ordersScanBack({ order_id: String(o.order_id) }),
                    `order-scan-back-${o.order_id}`,
                  )
                : "",
            ),
          ),
        ),
      ),
      h("h3", {}, "Inbound shipments"),
      table(
        ["id", "status", "expected", "received", "carrier", "tracking", ""],
        t.inbound_shipments.map((s) =>
          h(
            "tr",
            { "data-testid": "inbound-row" },
            h("td", {}, s.inbound_shipment_id),
            h("td", {}, s.status),
            h("td", {}, s.expected_card_count),
            h("td", {}, s.received_unique_ids?.length ?? 0),
            h("td", {}, s.carrier ?? ""),
            h("td", {}, s.tracking_number ?? ""),
            h("td", {}, rowButtons(page, "inbound-shipment", s, s.inbound_shipment_id)),
          ),
        ),
      ),
      h("h3", {}, "Withdrawals"),
      table(
        ["id", "status", "method", "cards", "created", ""],
        t.withdrawals.map((w) =>
          h(
            "tr",
            { "data-testid": "withdrawal-row" },
            h("td", {}, w.withdrawal_id),
            h("td", {}, w.status),
            h("td", {}, w.method),
            h("td", {}, w.unique_ids.length),
            h("td", {}, w.created_at),
            h("td", {}, rowButtons(page, "withdrawal", w, w.withdrawal_id)),
          ),
        ),
      ),
      h("h3", {}, "Exceptions"),
      table(
        ["id", "kind", "status", "message", "created", ""],
        t.exceptions.map((e) =>
          h(
            "tr",
            { "data-testid": "exception-row" },
            h("td", {}, e.exception_id),
            h("td", {}, e.kind),
            h("td", {}, e.status),
            h("td", {}, e.message),
            h("td", {}, e.created_at),
            h(
              "td",
              {},
              // Exceptions have no lifecycle table: an OPEN one can be resolved.
              e.status === "OPEN"
                ? act(
                    page,
                    "Resolve",
                    () => c.warehouse.exceptionsResolve({ id: String(e.exception_id) }),
                    `resolve-${e.exception_id}`,
                  )
                : "",
            ),
          ),
        ),
      ),
    );
  }
  return out.length ? out : [h("p", {}, "No tenant has used the warehouse yet.")];
};
