import type { z } from "./zod.ts";
import { eventsOf, specOf, type AnyLifecycle, type EventOf, type EventSpec } from "./lifecycle.ts";
import { PARTNER_TABLES, TENANT_TABLES } from "./lifecycles/index.ts";

// The webhook events (docs/webhooks.md "Events"), read off the lifecycle tables that declare them
// (contract/lifecycles/: each type in a row's `events` or as a side event, its `data` shape and example in the
// table): nothing here names an event type the emulator publishes, so a type added to a table is in the
// catalogue, the list `POST /webhooks` accepts, the trigger command and the generated docs at once. The emulator
// publishes them, the receiver check (conformance/receiver/) sends them to a partner's endpoint.

/** The event types of partner accounts' tables, of tenant (warehouse) accounts' tables, and both. */
export type PartnerEventType = EventOf<(typeof PARTNER_TABLES)[number]>;
export type WarehouseEventType = EventOf<(typeof TENANT_TABLES)[number]>;
export type EventType = PartnerEventType | WarehouseEventType;

/** An event type as the catalogue holds it: what its table declares of it, and which table. */
export interface CataloguedEvent extends EventSpec {
  type: EventType;
  /** The name of the one table that declares it. */
  table: string;
  /** Whose webhooks get it (its table's records' accounts). */
  accounts: "partner" | "tenant";
  /** Published beside the table's records without a move (a side event), not by a row. */
  side: boolean;
}

/**
 * The order the service's documents list their event types in: the 21 live ones as docs/reference/live-service.md
 * "Event types" (and the SDK) list them, then the interface document's warehouse ones. The lists the wire shows
 * (`allowed` of a 400 invalid_event_types, GET /_emulator/webhooks) keep it. It orders and declares nothing: a name
 * here no table declares is no event type (test/events/declared.test.ts refuses one), and a type a table declares
 * that is not here (one the emulator adds) follows the listed types of its accounts, in table order.
 */
export const LISTED_ORDER: readonly string[] = [
  "deposit.credited",
  "purchase.reserved",
  "purchase.submitted",
  "purchase.fulfilled",
  "purchase.refunded",
  "purchase.failed",
  "instant_purchase.reserved",
  "instant_purchase.submitted",
  "instant_purchase.fulfilled",
  "instant_purchase.refunded",
  "instant_purchase.failed",
  "buyback.confirmed",
  "buyback.transfer_held",
  "buyback.card_transferred",
  "buyback.transfer_failed",
  "redemption.prepared",
  "redemption.updated",
  "pool.item_pulled",
  "sellback.confirmed",
  "payout.statement_ready",
  "payout.paid",
  "order.tracking_updated",
  "order.tracking_status_changed",
  "card.returned",
  "order.returned",
];

/** Where LISTED_ORDER puts a type (one it does not list: after all it lists). */
const listedRank = (type: string): number => {
  const i = LISTED_ORDER.indexOf(type);
  return i === -1 ? LISTED_ORDER.length : i;
};

/** The event types `tables` declare (their accounts' `accounts`), in listed order, then table order. */
function catalogued(tables: readonly AnyLifecycle[], accounts: CataloguedEvent["accounts"]): CataloguedEvent[] {
  const out = tables.flatMap((lc) =>
    eventsOf(lc).map((type) => {
      const { data, example } = specOf(lc, type)!;
      return {
        type: type as EventType,
        data,
        example,
        table: lc.name,
        accounts,
        side: !Object.hasOwn(lc.catalogue, type),
      };
    }),
  );
  return out.sort((a, b) => listedRank(a.type) - listedRank(b.type)); // stable: the unlisted keep table order
}

const PARTNER = catalogued(PARTNER_TABLES, "partner");
const TENANT = catalogued(TENANT_TABLES, "tenant");

/** Every event type the emulator publishes → what its table declares of it. */
export const EVENT_CATALOGUE: Readonly<Record<EventType, CataloguedEvent>> = Object.freeze(
  Object.fromEntries([...PARTNER, ...TENANT].map((e) => [e.type, Object.freeze(e)])) as Record<
    EventType,
    CataloguedEvent
  >,
);

export const PARTNER_EVENT_TYPES: readonly PartnerEventType[] = Object.freeze(
  PARTNER.map((e) => e.type as PartnerEventType),
);
export const WAREHOUSE_EVENT_TYPES: readonly WarehouseEventType[] = Object.freeze(
  TENANT.map((e) => e.type as WarehouseEventType),
);
/** Every event type a webhook may subscribe to: the partner ones, then the warehouse ones (the tables declare some). */
export const EVENT_TYPES = Object.freeze([...PARTNER_EVENT_TYPES, ...WAREHOUSE_EVENT_TYPES]) as readonly [
  EventType,
  ...EventType[],
];

/** Documented but not live: registering for them is 400 invalid_event_types (no table declares them). */
export const NOT_LIVE_EVENT_TYPES = [
  "card.price_updated",
  "card.added",
  "card.updated",
  "expansion.released",
  "sealed.price_updated",
  "population.updated",
] as const;

/** The `data` schema of every event type: what the publisher (emulator/events/publish.ts) holds each event to. */
export const EVENT_SCHEMAS: Readonly<Record<EventType, z.ZodType>> = Object.freeze(
  Object.fromEntries(EVENT_TYPES.map((t) => [t, EVENT_CATALOGUE[t].data])) as Record<EventType, z.ZodType>,
);

/**
 * The `data` schemas of the partner event types, as the official SDK types them: the catalogue's examples and every
 * live emission are held to these (test/mystery/purchase-events.test.ts), so the two cannot drift apart.
 */
export const EVENT_PAYLOADS: Readonly<Record<PartnerEventType, z.ZodType>> = Object.freeze(
  Object.fromEntries(PARTNER_EVENT_TYPES.map((t) => [t, EVENT_CATALOGUE[t].data])) as Record<
    PartnerEventType,
    z.ZodType
  >,
);
