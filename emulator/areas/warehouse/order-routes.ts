import { badRequest } from "../../pipeline/errors.ts";
import { checkIdentifier } from "../../pipeline/identifiers.ts";
import { accepted, ok, type RouteSpec } from "../../pipeline/route.ts";
import { ORDER_STATUSES } from "./model.ts";
import { orderWire } from "./format.ts";
import { intParam, keyOf, list, read, scoped, statusFilter, tenant, TENANT, write } from "./http.ts";
import { cancel, commit, findOrder, quote } from "./orders.ts";
import { parseAddress, parseCarriers, parseUniqueIds } from "./shipping.ts";

// Quotes and orders. Scopes as the interface's table: orders list/get need a
// tenant key only; shipping-quote and orders create/cancel need write:order.

const WRITE_ORDER = scoped("write:order");

export const orderRoutes: RouteSpec[] = [
  write("POST", "/shipping-quote", WRITE_ORDER, async (c) => {
    const b = await c.object();
    const input = { unique_ids: parseUniqueIds(b.unique_ids), address: parseAddress(b.address ?? b.shipping_address), carriers: parseCarriers(b.carriers) };
    const { order: o, superseded } = quote(c.services, tenant(c), keyOf(c).key, input);
    return ok({
      order_id: o.order_id,
      status: o.status,
      unique_ids: o.unique_ids,
      address: o.address,
      rates: o.rates,
      quoted_at: o.quoted_at,
      expires_at: o.quote_expires_at,
      // Every uncommitted quote of this key that the new one superseded (the newest also as superseded_order_id).
      superseded_order_id: superseded.length ? superseded[superseded.length - 1] : null,
      superseded_order_ids: superseded,
    });
  }),

  write("POST", "/orders", WRITE_ORDER, async (c) => {
    const b = await c.object();
    if (typeof b.order_id !== "number" || !Number.isSafeInteger(b.order_id))
      throw badRequest("invalid_order_id", "order_id must be an integer (the order_id returned by POST /shipping-quote)");
    if (typeof b.rate_id !== "string" || b.rate_id === "") throw badRequest("invalid_rate_id", "rate_id must be a non-empty string (one of the quote's rates)");
    checkIdentifier(b.rate_id, "rate_id");
    const { order } = commit(c.services, tenant(c), keyOf(c).key, b.order_id, b.rate_id);
    return accepted(orderWire(order));
  }),

  read("/orders", TENANT, (c) => {
    const status = statusFilter(c, ORDER_STATUSES);
    const rows = Object.values(tenant(c).orders)
      .filter((o) => !status || o.status === status)
      .sort((a, b) => b.order_id - a.order_id)
      .map(orderWire);
    return list(c, "orders", rows);
  }),

  read("/orders/:order_id", TENANT, (c) => ok(orderWire(findOrder(tenant(c), intParam(c, "order_id", "order"))))),

  write("POST", "/orders/:order_id/cancel", WRITE_ORDER, (c) => ok(orderWire(cancel(c.services, tenant(c), keyOf(c).key, intParam(c, "order_id", "order"))))),
];
