import type { Services } from "../../pipeline/services.ts";
import { badRequest, notFound } from "../../pipeline/errors.ts";
import { checkIdentifier, intId } from "../../pipeline/identifiers.ts";
import { own } from "../../state/own.ts";
import { created, ok } from "../../pipeline/route.ts";
import type { ControlContext, ControlSpec } from "../../control/route.ts";
import { optNumber, optString, optStringArray, reqString } from "../../control/body.ts";
import { EXCEPTION_KINDS, type ExceptionKind, type TenantState } from "./model.ts";
import { cardWire, inboundWire, orderWire } from "./format.ts";
import { cardOwner, tenantOf, warehouse } from "./state.ts";
import { deliver, failNextLabels, returnToSender, scanBack, ship } from "./orders.ts";
import { receive } from "./inbound.ts";
import { completeWithdrawal } from "./custody.ts";
import { closeMonth, confirmIdentity, raiseException, resolveException, setPrice } from "./operator.ts";

// Operator actions under /_emulator/warehouse/…: the same domain functions the
// routes use. Records are found by their (globally unique) ids, so no tenant
// needs naming except where nothing identifies one (default: northwind, the
// fixture tenant).

const DEFAULT_TENANT = "northwind";

/** An id from a control body: a non-empty string of at most 255 characters, like the API's identifiers. */
function idField(body: Record<string, unknown>, name: string): string | undefined {
  const v = optString(body, name);
  if (v !== undefined) checkIdentifier(v, name);
  return v;
}

const tenantOfBody = (c: ControlContext) => tenantOf(c.services, idField(c.body, "account_id") ?? DEFAULT_TENANT);

/** The tenant holding record `raw` of `kind`, and its id (404 unless `raw` is a canonical integer id some tenant holds). */
function owning(services: Services, kind: "orders" | "inbound" | "withdrawals" | "exceptions", raw: string): { t: TenantState; id: number } {
  const id = intId(raw);
  if (id !== null) for (const t of Object.values(warehouse(services).tenants)) if (Object.hasOwn(t[kind], String(id))) return { t, id };
  throw notFound(`No ${kind} record ${raw}`);
}

function cardTenant(c: ControlContext) {
  checkIdentifier(c.params.unique_id, "unique_id");
  const owner = cardOwner(c.services, c.params.unique_id);
  const t = owner === null ? undefined : tenantOf(c.services, owner);
  const card = t && own(t.cards, c.params.unique_id);
  if (!t || !card) throw notFound(`No card ${c.params.unique_id}`);
  return { t, card };
}

const orderAction = (path: string, describe: string, fn: (s: Services, t: TenantState, id: number) => Parameters<typeof orderWire>[0]): ControlSpec => ({
  method: "POST",
  path: `/warehouse/orders/:order_id/${path}`,
  describe,
  handle: (c) => {
    const { t, id } = owning(c.services, "orders", c.params.order_id);
    return ok(orderWire(fn(c.services, t, id)));
  },
});

export const warehouseControl: ControlSpec[] = [
  {
    method: "POST",
    path: "/warehouse/inbound-shipments/:id/receive",
    describe: "Warehouse: receive an announced inbound shipment {count?}; its cards appear pending identity",
    handle: (c) => {
      const { t, id } = owning(c.services, "inbound", c.params.id);
      const { shipment, cards } = receive(c.services, t, id, optNumber(c.body, "count", { min: 1, max: 5000, integer: true }));
      return ok({ inbound_shipment: inboundWire(shipment), cards: cards.map((x) => cardWire(x, { withStatus: true })) });
    },
  },
  {
    method: "POST",
    path: "/warehouse/cards/:unique_id/confirm-identity",
    describe: "Warehouse: publish a pending card's identity {card_id?} (confirmed / unpriced)",
    handle: (c) => {
      const { t, card } = cardTenant(c);
      return ok(cardWire(confirmIdentity(c.services, t, card, idField(c.body, "card_id")), { withStatus: true }));
    },
  },
  {
    method: "POST",
    path: "/warehouse/cards/:unique_id/price",
    describe: 'Warehouse: set a published card\'s market price {market_price: "12.34" | null} (priced, service declared value)',
    handle: (c) => {
      const raw = c.body.market_price;
      let market: number | null;
      if (raw === null) market = null;
      else if ((typeof raw === "string" && /^\d+(\.\d{1,2})?$/.test(raw)) || (typeof raw === "number" && Number.isFinite(raw) && raw >= 0)) market = Number(raw);
      else throw badRequest("invalid_value", 'market_price must be a USD decimal string such as "12.34" (or null to clear it)');
      const { t, card } = cardTenant(c);
      return ok(cardWire(setPrice(c.services, t, card, market), { withStatus: true }));
    },
  },
  {
    method: "POST",
    path: "/warehouse/exceptions",
    describe: `Warehouse: raise an exception {account_id?, kind: ${EXCEPTION_KINDS.join("|")}, message?, unique_id?, order_id?, inbound_shipment_id?}`,
    handle: (c) => {
      const kind = reqString(c.body, "kind", EXCEPTION_KINDS) as ExceptionKind;
      const e = raiseException(c.services, tenantOfBody(c), {
        kind,
        message: optString(c.body, "message") ?? `Operator raised a ${kind} exception`,
        unique_id: idField(c.body, "unique_id"),
        order_id: optNumber(c.body, "order_id", { integer: true }),
        inbound_shipment_id: optNumber(c.body, "inbound_shipment_id", { integer: true }),
      });
      return created(e);
    },
  },
  {
    method: "POST",
    path: "/warehouse/exceptions/:id/resolve",
    describe: "Warehouse: resolve an open exception",
    handle: (c) => {
      const { t, id } = owning(c.services, "exceptions", c.params.id);
      return ok(resolveException(c.services, t, id));
    },
  },
  {
    method: "POST",
    path: "/warehouse/billing/close",
    describe: "Warehouse: close a billing month {account_id?, month?: YYYY-MM (default: the current month)} → invoice and reports",
    handle: (c) => created(closeMonth(c.services, tenantOfBody(c), optString(c.body, "month") ?? c.services.clock.nowIso().slice(0, 7))),
  },
  {
    method: "POST",
    path: "/warehouse/labels/fail-next",
    describe: "Warehouse: make the next label purchases fail {account_id?, times?: 1} (orders go back to PENDING_PAYMENT)",
    handle: (c) => {
      const t = tenantOfBody(c);
      const armed = failNextLabels(t, optNumber(c.body, "times", { min: 1, max: 1000, integer: true }) ?? 1);
      return ok({ account_id: t.account_id, fail_next_labels: armed });
    },
  },
  orderAction("ship", "Warehouse: hand a LABEL_PURCHASED order to the carrier (SHIPPED; tracking events)", ship),
  orderAction("deliver", "Warehouse: the carrier delivers a SHIPPED order (DELIVERED; tracking events)", deliver),
  orderAction("return", "Warehouse: the carrier returns a SHIPPED order (RETURNED; order.returned)", returnToSender),
  {
    method: "POST",
    path: "/warehouse/orders/:order_id/scan-back",
    describe: "Warehouse: scan a RETURNED order's cards back into inventory {unique_ids?} (OFFCHAIN; card.returned per card)",
    handle: (c) => {
      const { t, id } = owning(c.services, "orders", c.params.order_id);
      const ids = optStringArray(c.body, "unique_ids");
      ids?.forEach((uid, i) => checkIdentifier(uid, `unique_ids[${i}]`));
      const { order, scanned } = scanBack(c.services, t, id, ids);
      return ok({ order: orderWire(order), scanned_unique_ids: scanned });
    },
  },
  {
    method: "POST",
    path: "/warehouse/withdrawals/:id/complete",
    describe: "Warehouse: complete a requested withdrawal (the cards leave the vault)",
    handle: (c) => {
      const { t, id } = owning(c.services, "withdrawals", c.params.id);
      return ok(completeWithdrawal(c.services, t, id));
    },
  },
];
