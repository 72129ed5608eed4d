import { WAREHOUSE_ORDERS, type Quote } from "../../../contract/index.ts";
import { accepted, ok, type RouteSpec } from "../../pipeline/route.ts";
import { orderWire } from "./format.ts";
import { intParam, keyOf, list, read, tenant, write } from "./http.ts";
import { cancel, commit, findOrder, quote } from "./orders.ts";
import { quoteInput } from "./shipping.ts";

// Quotes and orders (contract/warehouse/orders.ts). Scopes as the interface's
// table: orders list/get need a tenant key only; shipping-quote and orders
// create/cancel need write:order.

const orderId = (raw: string) => intParam(raw, "order_id", "order");

export const orderRoutes: RouteSpec[] = [
  write(WAREHOUSE_ORDERS.quote, (c) => {
    const { order: o, superseded } = quote(c.services, tenant(c), keyOf(c), quoteInput(c.input.body));
    const answer: Quote = {
      order_id: o.order_id,
      status: "PENDING_PAYMENT", // a fresh quote
      unique_ids: o.unique_ids,
      address: o.address,
      rates: o.rates,
      quoted_at: o.quoted_at,
      expires_at: o.quote_expires_at,
      // Every uncommitted quote of this key that the new one superseded (the newest also as superseded_order_id).
      superseded_order_id: superseded.length ? superseded[superseded.length - 1] : null,
      superseded_order_ids: superseded,
    };
    return ok(answer);
  }),

  write(WAREHOUSE_ORDERS.create, (c) => {
    const { order_id, rate_id } = c.input.body;
    return accepted(orderWire(commit(c.services, tenant(c), keyOf(c), order_id, rate_id).order));
  }),

  read(WAREHOUSE_ORDERS.list, (c) => {
    const { status, ...page } = c.input.query;
    const rows = Object.values(tenant(c).orders)
      .filter((o) => !status || o.status === status)
      .sort((a, b) => b.order_id - a.order_id);
    return list("orders", rows, page, orderWire);
  }),

  read(WAREHOUSE_ORDERS.get, (c) => ok(orderWire(findOrder(tenant(c), orderId(c.input.params.order_id))))),

  write(WAREHOUSE_ORDERS.cancel, (c) =>
    ok(orderWire(cancel(c.services, tenant(c), keyOf(c), orderId(c.input.params.order_id)))),
  ),
];
