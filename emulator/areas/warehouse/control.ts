import type { Services } from "../../pipeline/services.ts";
import { notFound } from "../../pipeline/errors.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { own } from "../../state/own.ts";
import { created, ok } from "../../pipeline/route.ts";
import { defineControl, type ControlSpec } from "../../control/route.ts";
import { badInput, missing, oneOf, opt, text } from "../../control/schemas.ts";
import { distinct, identifier, z } from "../../pipeline/schema.ts";
import { EXCEPTION_KINDS, type TenantState } from "./model.ts";
import {
  InboundShipment,
  InventoryCard,
  Invoice,
  Order,
  WarehouseException,
  Withdrawal,
} from "../../../contract/index.ts";
import { warehouseCardWire, inboundWire, orderWire } from "./format.ts";
import { cardOwner, tenantOf, warehouse } from "./state.ts";
import { deliver, failNextLabels, returnToSender, scanBack, ship } from "./orders.ts";
import { receive } from "./inbound.ts";
import { completeWithdrawal } from "./handover.ts";
import { toCents } from "./money.ts";
import { closeMonth, confirmIdentity, raiseException, resolveException, setPrice } from "./operator.ts";

// Operator actions under /_emulator/warehouse/…: the same domain functions the
// routes use. Records are found by their (globally unique) ids, so no tenant
// needs naming except where nothing identifies one (default: northwind, the
// fixture tenant).

const DEFAULT_TENANT = "northwind";

/** An id in a control body or path: a non-empty string of at most 255 characters, like the API's identifiers. */
const idField = () => identifier(text());
const tenantField = { account_id: opt(idField()) };

/** The tenant holding record `raw` of `kind`, and its id (404 unless `raw` is a canonical integer id some tenant holds). */
function owning(
  services: Services,
  kind: "orders" | "inbound" | "withdrawals" | "exceptions",
  raw: string,
): { t: TenantState; id: number } {
  const id = intId(raw);
  if (id !== null)
    for (const t of Object.values(warehouse(services).tenants))
      if (Object.hasOwn(t[kind], String(id))) return { t, id };
  throw notFound(`No ${kind} record ${raw}`);
}

function cardTenant(services: Services, uniqueId: string) {
  const owner = cardOwner(services, uniqueId);
  const t = owner === null ? undefined : tenantOf(services, owner);
  const card = t && own(t.cards, uniqueId);
  if (!t || !card) throw notFound(`No card ${uniqueId}`);
  return { t, card };
}

const param = (name: string) => z.object({ [name]: identifier() });
const conflictOn = (what: string) =>
  ({ description: `The ${what} is not in a state that allows this`, codes: ["invalid_status"] }) as const;
const cardAnswer = { description: "The card, with its status", data: InventoryCard };
/** A market price: at most a billion dollars, at most two decimals (read as text, then integer cents). */
const PRICE = /^\d{1,9}(\.\d{1,2})?$/;

const orderAction = (
  path: string,
  describe: string,
  fn: (s: Services, t: TenantState, id: number) => Parameters<typeof orderWire>[0],
): ControlSpec =>
  defineControl({
    method: "POST",
    path: `/warehouse/orders/:order_id/${path}`,
    describe,
    schema: {
      params: param("order_id"),
      responses: { 200: { description: "The order", data: Order }, 404: missing("order"), 409: conflictOn("order") },
    },
    handle: (c) => {
      const { t, id } = owning(c.services, "orders", c.input.params.order_id!);
      return ok(orderWire(fn(c.services, t, id)));
    },
  });

export const warehouseControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/warehouse/inbound-shipments/:id/receive",
    describe: "Warehouse: receive an announced inbound shipment {count?}; its cards appear pending identity",
    schema: {
      params: param("id"),
      body: z.object({ count: opt(z.number().int().min(1).max(5000)) }),
      responses: {
        200: {
          description: "The shipment and its cards",
          data: z.object({ inbound_shipment: InboundShipment, cards: z.array(InventoryCard) }),
        },
        400: badInput,
        404: missing("inbound shipment"),
        409: conflictOn("shipment"),
      },
    },
    handle: (c) => {
      const { t, id } = owning(c.services, "inbound", c.input.params.id!);
      const { shipment, cards } = receive(c.services, t, id, c.input.body.count);
      return ok({
        inbound_shipment: inboundWire(shipment),
        cards: cards.map((x) => warehouseCardWire(x, { withStatus: true })),
      });
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/cards/:unique_id/confirm-identity",
    describe: "Warehouse: publish a pending card's identity {card_id?} (confirmed / unpriced)",
    schema: {
      params: param("unique_id"),
      body: z.object({ card_id: opt(idField()) }),
      responses: { 200: cardAnswer, 400: badInput, 404: missing("card"), 409: conflictOn("card") },
    },
    handle: (c) => {
      const { t, card } = cardTenant(c.services, c.input.params.unique_id!);
      return ok(warehouseCardWire(confirmIdentity(c.services, t, card, c.input.body.card_id), { withStatus: true }));
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/cards/:unique_id/price",
    describe:
      'Warehouse: set a published card\'s market price {market_price: "12.34" | null} (priced, service declared value)',
    schema: {
      params: param("unique_id"),
      body: z.object({
        market_price: z.union(
          [
            z
              .string()
              .regex(PRICE)
              .transform((v) => toCents(v)),
            // A number is read as its decimal text: at most two places, never scaled as a float.
            z
              .number()
              .refine((n) => PRICE.test(String(n)))
              .transform((v) => toCents(v)),
            z.null(),
          ],
          { error: 'must be a USD decimal string such as "12.34" (or null to clear it)' },
        ),
      }),
      responses: { 200: cardAnswer, 400: badInput, 404: missing("card"), 409: conflictOn("card") },
    },
    handle: (c) => {
      const { t, card } = cardTenant(c.services, c.input.params.unique_id!);
      return ok(warehouseCardWire(setPrice(c.services, t, card, c.input.body.market_price), { withStatus: true }));
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/exceptions",
    describe: `Warehouse: raise an exception {account_id?, kind: ${EXCEPTION_KINDS.join("|")}, message?, unique_id?, order_id?, inbound_shipment_id?}`,
    schema: {
      body: z.object({
        ...tenantField,
        kind: oneOf(EXCEPTION_KINDS),
        message: opt(text()),
        unique_id: opt(idField()),
        order_id: opt(z.number().int()),
        inbound_shipment_id: opt(z.number().int()),
      }),
      responses: {
        201: { description: "The exception", data: WarehouseException },
        400: badInput,
        404: missing("tenant or record"),
      },
    },
    handle: (c) => {
      const b = c.input.body;
      const e = raiseException(c.services, tenantOf(c.services, b.account_id ?? DEFAULT_TENANT), {
        kind: b.kind,
        message: b.message ?? `Operator raised a ${b.kind} exception`,
        unique_id: b.unique_id,
        order_id: b.order_id,
        inbound_shipment_id: b.inbound_shipment_id,
      });
      return created(e);
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/exceptions/:id/resolve",
    describe: "Warehouse: resolve an open exception",
    schema: {
      params: param("id"),
      responses: {
        200: { description: "The exception, resolved", data: WarehouseException },
        404: missing("exception"),
        409: conflictOn("exception"),
      },
    },
    handle: (c) => {
      const { t, id } = owning(c.services, "exceptions", c.input.params.id!);
      return ok(resolveException(c.services, t, id));
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/billing/close",
    describe:
      "Warehouse: close a billing month {account_id?, month?: YYYY-MM (default: the current month)} → invoice and reports",
    schema: {
      body: z.object({ ...tenantField, month: opt(text()) }),
      responses: { 201: { description: "The month's invoice", data: Invoice }, 400: badInput, 404: missing("tenant") },
    },
    handle: (c) =>
      created(
        closeMonth(
          c.services,
          tenantOf(c.services, c.input.body.account_id ?? DEFAULT_TENANT),
          c.input.body.month ?? c.services.clock.nowIso().slice(0, 7),
        ),
      ),
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/labels/fail-next",
    describe:
      "Warehouse: make the next label purchases fail {account_id?, times?: 1} (orders go back to PENDING_PAYMENT)",
    schema: {
      body: z.object({ ...tenantField, times: opt(z.number().int().min(1).max(1000)) }),
      responses: {
        200: { description: "Armed", data: z.object({ account_id: z.string(), fail_next_labels: z.number().int() }) },
        400: badInput,
        404: missing("tenant"),
      },
    },
    handle: (c) => {
      const t = tenantOf(c.services, c.input.body.account_id ?? DEFAULT_TENANT);
      const armed = failNextLabels(t, c.input.body.times ?? 1);
      return ok({ account_id: t.account_id, fail_next_labels: armed });
    },
  }),
  orderAction("ship", "Warehouse: hand a LABEL_PURCHASED order to the carrier (SHIPPED; tracking events)", ship),
  orderAction("deliver", "Warehouse: the carrier delivers a SHIPPED order (DELIVERED; tracking events)", deliver),
  orderAction("return", "Warehouse: the carrier returns a SHIPPED order (RETURNED; order.returned)", returnToSender),
  defineControl({
    method: "POST",
    path: "/warehouse/orders/:order_id/scan-back",
    describe:
      "Warehouse: scan a RETURNED order's cards back into inventory {unique_ids?} (OFFCHAIN; card.returned per card)",
    schema: {
      params: param("order_id"),
      body: z.object({ unique_ids: opt(distinct(z.array(idField()), "card")) }),
      responses: {
        200: {
          description: "The order and the cards scanned back",
          data: z.object({ order: Order, scanned_unique_ids: z.array(z.string()) }),
        },
        400: badInput,
        404: missing("order"),
        409: conflictOn("order"),
      },
    },
    handle: (c) => {
      const { t, id } = owning(c.services, "orders", c.input.params.order_id!);
      const { order, scanned } = scanBack(c.services, t, id, c.input.body.unique_ids);
      return ok({ order: orderWire(order), scanned_unique_ids: scanned });
    },
  }),
  defineControl({
    method: "POST",
    path: "/warehouse/withdrawals/:id/complete",
    describe: "Warehouse: complete a requested withdrawal (the cards leave the vault)",
    schema: {
      params: param("id"),
      responses: {
        200: { description: "The withdrawal, completed", data: Withdrawal },
        404: missing("withdrawal"),
        409: conflictOn("withdrawal"),
      },
    },
    handle: (c) => {
      const { t, id } = owning(c.services, "withdrawals", c.input.params.id!);
      return ok(completeWithdrawal(c.services, t, id));
    },
  }),
];
