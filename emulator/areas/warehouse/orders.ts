import { isTestValue } from "../../pipeline/test-values.ts";
import type { Services } from "../../pipeline/services.ts";
import type { KeyRecord } from "../../state/schema.ts";
import { ApiError, badRequest, conflict, notFound } from "../../pipeline/errors.ts";
import { publishBuilt } from "../../events/publish.ts";
import { ORDER_PAYLOADS, ORDER_SIDE_PAYLOADS } from "./payloads.ts";
import { own } from "../../state/own.ts";
import type { CardRow, Order, TenantState } from "./model.ts";
import { orderWire } from "./format.ts";
import { orderDeadlines } from "./business-days.ts";
import { rateTable, requireShippable, type QuoteInput } from "./shipping.ts";
import { billLabel, voidLabel } from "./label-billing.ts";
import { rowFor } from "../../../contract/lifecycle.ts";
import { WAREHOUSE_ORDER, type OrderEvent, type OrderTrigger } from "../../../contract/lifecycles/warehouse-order.ts";
import { begin, transition } from "../../pipeline/lifecycle.ts";
import { type Actor, logActivity, tenantOf, touch, updateCards } from "./state.ts";
import { armLabel } from "./timers.ts";
import { isoOf } from "../../../contract/time.ts";
import { COUNTERS } from "../../state/ids.ts";

// The order lifecycle. A quote creates an order in PENDING_PAYMENT with its
// rates; committing a rate reserves the cards and buys the label a few
// seconds later on the clock (LABEL_PURCHASING → LABEL_PURCHASED). Any failure
// puts the order back in PENDING_PAYMENT with the cards released, so a retry
// is safe. Operator actions then ship, deliver or return it; returned cards
// are scanned back one by one (OFFCHAIN, card.returned, orderable again).

/** How long a label purchase takes on the clock. */
/** Quotes (and their rate_ids) stay valid this long. */
export const QUOTE_TTL_MS = 24 * 3_600_000;

const holder = (o: Order) => `order:${o.order_id}`;

export function findOrder(t: TenantState, orderId: number): Order {
  const o = own(t.orders, String(orderId));
  if (!o) throw notFound(`No order ${orderId} for this tenant`);
  return o;
}

const invalidStatus = (o: Order, action: string) =>
  conflict("invalid_status", `Order ${o.order_id} is ${o.status}; cannot ${action}`, {
    data: orderWire(o),
    human: `The order cannot ${action} in status ${o.status}`,
  });

/** What each move is called in a refusal (`cannot …`). */
const ACTIONS: Record<OrderTrigger, string> = {
  quote: "be quoted",
  supersede: "be superseded",
  commit: "be committed",
  label_failed: "fail its label",
  label_bought: "buy its label",
  cancel: "be cancelled",
  ship: "ship",
  deliver: "be delivered",
  return: "be returned by the carrier",
};

/**
 * Moves the order by `trigger` through its table (contract/lifecycles/warehouse-order.ts): a move the table lacks
 * is the warehouse's 409 invalid_status with the order as it is; the move's events are built in payloads.ts
 * from the order as moved (a `tracking_status` in the patch is a tracking change: its previous status rides along).
 */
function step(services: Services, t: TenantState, o: Order, trigger: OrderTrigger, patch: Partial<Order>): Order {
  const previous = o.tracking_status;
  return transition(WAREHOUSE_ORDER, o, trigger, {
    now: services.clock.now(),
    patch: { ...patch, updated_at: services.clock.nowIso() },
    emit: (event) => publishBuilt(services, t.account_id, ORDER_PAYLOADS, event, { o, previous }),
    refuse: () => invalidStatus(o, ACTIONS[trigger]),
  });
}

/**
 * A new quote: an order in PENDING_PAYMENT with its rates. It supersedes every
 * uncommitted quote of the caller (the key), not only the newest: an order a
 * label failure put back in PENDING_PAYMENT is uncommitted again, so a caller
 * never holds two committable quotes after re-quoting.
 */
export function quote(
  services: Services,
  t: TenantState,
  key: KeyRecord,
  input: QuoteInput,
): { order: Order; superseded: number[] } {
  requireShippable(t, input.unique_ids);
  // Check there is a rate before taking an order id: a rejected quote leaves no trace.
  if (rateTable(0, 0, input).length === 0)
    throw new ApiError(
      422,
      "no_rates",
      `No rate from ${input.carriers.join(", ")} serves ${input.address.country === "US" ? "US" : "international"} destinations`,
      {
        details: { carriers: input.carriers, country: input.address.country },
      },
    );
  const orderId = services.store.nextId(COUNTERS.warehouseOrder);
  const rates = rateTable(orderId, services.store.state.seed, input);
  const now = services.clock.now();
  const iso = isoOf(now);

  const superseded: number[] = [];
  for (const previous of Object.values(t.orders)) {
    if (previous.quoted_by !== key.key || previous.status !== "PENDING_PAYMENT") continue;
    step(services, t, previous, "supersede", {
      cancel_reason: "superseded",
      superseded_by: orderId,
      cancelled_at: iso,
    });
    superseded.push(previous.order_id);
  }

  const order: Order = {
    order_id: orderId,
    status: "PENDING_PAYMENT",
    unique_ids: [...input.unique_ids],
    address: input.address,
    rates,
    quoted_at: iso,
    quote_expires_at: isoOf(now + QUOTE_TTL_MS),
    quoted_by: key.key,
    superseded_by: null,
    cancel_reason: null,
    rate_id: null,
    carrier: null,
    service: null,
    amount: null,
    tracking_number: null,
    tracking_status: null,
    label_url: null,
    ship_by_at: null,
    sla_due_at: null,
    committed_at: null,
    label_purchased_at: null,
    shipped_at: null,
    delivered_at: null,
    returned_at: null,
    cancelled_at: null,
    awaiting_scan: [],
    attempts: 0,
    last_error: null,
    due_at_ms: null,
    created_at: iso,
    updated_at: iso,
  };
  const emit = (event: OrderEvent) =>
    publishBuilt(services, t.account_id, ORDER_PAYLOADS, event, { o: order, previous: null });
  t.orders[String(orderId)] = begin(WAREHOUSE_ORDER, order, "quote", { now, emit });
  logActivity(services, t, key, "order.quoted", `Quoted ${rates.length} rates for ${order.unique_ids.length} card(s)`, {
    order_id: orderId,
  });
  return { order, superseded: superseded.sort((a, b) => a - b) };
}

/** POST /orders: validates, reserves the cards, and starts the label purchase. Returns the order and whether it was already committed. */
export function commit(
  services: Services,
  t: TenantState,
  actor: Actor,
  orderId: number,
  rateId: string,
): { order: Order; replay: boolean } {
  const o = findOrder(t, orderId);
  if (o.status === "CANCELLED" && o.cancel_reason === "superseded")
    throw conflict(
      "quote_superseded",
      `Order ${orderId}'s quote was superseded by a newer quote (order ${o.superseded_by}); commit that one`,
      {
        data: orderWire(o),
        human: "This quote was superseded by a newer quote",
      },
    );
  if (o.status !== "PENDING_PAYMENT") {
    // A retry of a commit that went through is answered with the order as it is now.
    if (o.rate_id === rateId && o.status !== "CANCELLED") return { order: o, replay: true };
    throw invalidStatus(o, "be committed");
  }
  const rate = o.rates.find((r) => r.rate_id === rateId);
  if (!rate)
    throw new ApiError(
      404,
      "rate_not_found",
      `rate_id ${rateId} is not one of order ${orderId}'s rates (${o.rates.map((r) => r.rate_id).join(", ")})`,
      {
        human: "Unknown rate for this order; quote again",
      },
    );
  const now = services.clock.now();
  if (now > Date.parse(o.quote_expires_at))
    throw conflict("quote_expired", `Order ${orderId}'s quote expired at ${o.quote_expires_at}; quote again`, {
      data: orderWire(o),
      human: "The quote has expired",
    });
  const cards = requireShippable(t, o.unique_ids);

  const iso = isoOf(now);
  for (const card of cards) reserve(card, holder(o));
  const chosen = { rate_id: rate.rate_id, carrier: rate.carrier, service: rate.service, amount: rate.amount };
  step(services, t, o, "commit", { ...chosen, committed_at: iso, attempts: o.attempts + 1 });
  armLabel(services, t.account_id, o.order_id, o.due_at_ms as number);
  logActivity(services, t, actor, "order.committed", `Committed order ${o.order_id} with ${rate.service}`, {
    order_id: o.order_id,
    rate_id: rate.rate_id,
  });
  return { order: o, replay: false };
}

// Reserving is not a change a sweep needs to see (status is not on /cards), so no new keyset position.
function reserve(card: CardRow, by: string): void {
  card.status = "RESERVED";
  card.held_by = by;
}
function release(card: CardRow): void {
  card.status = "AVAILABLE";
  card.held_by = null;
}
/** Releases the order's cards that it still holds. */
function releaseHeld(t: TenantState, o: Order): void {
  for (const id of o.unique_ids) {
    const card = own(t.cards, id);
    if (card?.held_by === holder(o)) release(card);
  }
}

/** The label purchase finishing on the clock (see timers.ts). */
export async function finishLabel(services: Services, accountId: string, orderId: number, due: number): Promise<void> {
  const t = tenantOf(services, accountId);
  const o = own(t.orders, String(orderId));
  if (!o || o.status !== "LABEL_PURCHASING" || o.due_at_ms !== due) return;
  const iso = services.clock.nowIso();
  const failure = labelFailure(services, t, o);
  if (failure) {
    releaseHeld(t, o);
    const uncommitted = { rate_id: null, carrier: null, service: null, amount: null, committed_at: null };
    step(services, t, o, "label_failed", { ...uncommitted, last_error: { ...failure, at: iso } });
    logActivity(
      services,
      t,
      "carrier",
      "order.label_failed",
      `Label purchase for order ${o.order_id} failed: ${failure.message}`,
      { order_id: o.order_id },
    );
    return;
  }
  const committed = Date.parse(o.committed_at as string);
  const label = {
    label_purchased_at: iso,
    tracking_number: trackingNumber(o),
    tracking_status: "label_created",
    label_url: `https://labels.emulator.invalid/${o.carrier}/${o.order_id}.pdf`,
    ...orderDeadlines(committed),
    last_error: null,
  };
  // The label is billed before the move (its tracking_updated goes out as the move's last effect).
  billLabel(t, o, iso);
  step(services, t, o, "label_bought", label);
  const what = `Label bought for order ${o.order_id} (${o.tracking_number})`;
  logActivity(services, t, "carrier", "order.label_purchased", what, { order_id: o.order_id });
  // Test value: the carrier takes the package and brings it back (in transit, then returned to sender).
  if (isTestValue(services, "return_to_sender", o.address.street1)) {
    ship(services, t, o.order_id);
    returnToSender(services, t, o.order_id);
  }
}

/** Operator action: the next `times` label purchases fail (the orders go back to PENDING_PAYMENT). Returns how many are armed. */
export function failNextLabels(t: TenantState, times: number): number {
  t.fail_next_labels += times;
  return t.fail_next_labels;
}

/** A carrier failure: armed by the operator (fail-next-label), or a fault on `POST /carrier/{carrier}/labels`. */
function labelFailure(services: Services, t: TenantState, o: Order): { code: string; message: string } | null {
  if (isTestValue(services, "fail_label", o.address.street1))
    return { code: "label_purchase_failed", message: "The carrier refused the label purchase (test address)" };
  if (t.fail_next_labels > 0) {
    t.fail_next_labels--;
    return {
      code: "label_purchase_failed",
      message: "The carrier refused the label purchase (operator-injected failure)",
    };
  }
  const fault = services.faults.take("POST", `/carrier/${o.carrier}/labels`);
  if (fault && fault.status >= 400)
    return { code: fault.error, message: fault.message ?? `The carrier answered ${fault.status}` };
  return null;
}

const trackingNumber = (o: Order) => {
  const n = String(o.order_id).padStart(10, "0");
  switch (o.carrier) {
    case "usps":
      return `9400111${n}${o.attempts}`;
    case "ups":
      return `1Z999AA1${n}`;
    case "dhl_express":
      return `JD01${n}`;
    default:
      return `LSO${n}`;
  }
};

export function cancel(services: Services, t: TenantState, actor: Actor, orderId: number): Order {
  const o = findOrder(t, orderId);
  if (!rowFor(WAREHOUSE_ORDER, o.status, "cancel")) throw invalidStatus(o, ACTIONS.cancel);
  const iso = services.clock.nowIso();
  releaseHeld(t, o);
  const voided = o.status === "LABEL_PURCHASED";
  if (voided) voidLabel(t, o, iso);
  step(services, t, o, "cancel", { cancel_reason: voided ? "cancelled_label_voided" : "cancelled", cancelled_at: iso });
  logActivity(
    services,
    t,
    actor,
    "order.cancelled",
    `Cancelled order ${o.order_id}${voided ? " (label voided)" : ""}`,
    { order_id: o.order_id },
  );
  return o;
}

// ---- operator actions (control plane) ----

export function ship(services: Services, t: TenantState, orderId: number): Order {
  const o = findOrder(t, orderId);
  if (!rowFor(WAREHOUSE_ORDER, o.status, "ship")) throw invalidStatus(o, ACTIONS.ship);
  const iso = services.clock.nowIso();
  updateCards(t, o.unique_ids, { status: "SHIPPED", location: "IN_TRANSIT" }, iso);
  step(services, t, o, "ship", { shipped_at: iso, tracking_status: "in_transit" });
  logActivity(services, t, "operator", "order.shipped", `Order ${o.order_id} handed to ${o.carrier}`, {
    order_id: o.order_id,
  });
  return o;
}

export function deliver(services: Services, t: TenantState, orderId: number): Order {
  const o = findOrder(t, orderId);
  if (!rowFor(WAREHOUSE_ORDER, o.status, "deliver")) throw invalidStatus(o, ACTIONS.deliver);
  const iso = services.clock.nowIso();
  updateCards(t, o.unique_ids, { location: "EXTERNAL" }, iso);
  step(services, t, o, "deliver", { delivered_at: iso, tracking_status: "delivered" });
  logActivity(services, t, "carrier", "order.delivered", `Order ${o.order_id} delivered`, { order_id: o.order_id });
  return o;
}

/** The carrier sends the package back: RETURNED and order.returned; the cards await scan-back. */
export function returnToSender(services: Services, t: TenantState, orderId: number): Order {
  const o = findOrder(t, orderId);
  if (!rowFor(WAREHOUSE_ORDER, o.status, "return")) throw invalidStatus(o, ACTIONS.return);
  const iso = services.clock.nowIso();
  updateCards(t, o.unique_ids, { status: "RETURNING" }, iso);
  step(services, t, o, "return", {
    returned_at: iso,
    awaiting_scan: [...o.unique_ids],
    tracking_status: "returned_to_sender",
  });
  logActivity(services, t, "carrier", "order.returned", `Order ${o.order_id} returned to the warehouse`, {
    order_id: o.order_id,
  });
  return o;
}

/** Scans returned cards back into inventory: each becomes OFFCHAIN and AVAILABLE (card.returned per card). */
export function scanBack(
  services: Services,
  t: TenantState,
  orderId: number,
  ids?: string[],
): { order: Order; scanned: string[] } {
  const o = findOrder(t, orderId);
  if (o.status !== "RETURNED") throw invalidStatus(o, "have cards scanned back");
  const wanted = ids ?? [...o.awaiting_scan];
  const stray = wanted.filter((id) => !o.awaiting_scan.includes(id));
  if (stray.length)
    throw badRequest("invalid_value", `not awaiting scan-back on order ${o.order_id}: ${stray.join(", ")}`);
  const iso = services.clock.nowIso();
  for (const id of wanted) {
    const card = t.cards[id];
    card.location = "OFFCHAIN";
    release(card);
    touch(t, card, iso);
    publishBuilt(services, t.account_id, ORDER_SIDE_PAYLOADS, "card.returned", { card, o, scannedAt: iso });
    logActivity(services, t, "operator", "card.returned", `Card ${id} scanned back into inventory`, {
      unique_id: id,
      order_id: o.order_id,
    });
  }
  o.awaiting_scan = o.awaiting_scan.filter((id) => !wanted.includes(id));
  o.updated_at = iso;
  return { order: o, scanned: wanted };
}
