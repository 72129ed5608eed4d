import type { EventType } from "../../contract/events.ts";

// Where an event's `data` comes from: the one table that declares an event type (contract/lifecycles/) holds its
// schema and example (the catalogue, contract/events.ts, reads them off the tables); each area builds the payloads of the events its tables declare in one
// module, its `payloads.ts` (mystery, instant, warehouse), as a `PayloadBuilders` record keyed by event type, so
// an event added to a table's row fails to compile until its builder is there (docs/architecture.md).

export { EVENT_PAYLOADS, EVENT_SCHEMAS, type PartnerEventType } from "../../contract/events.ts";

/** One event as built: its key (the event id is `"<type>:<key>"`, so an occurrence is delivered once) and data. */
export interface BuiltEvent {
  key: string;
  data: Record<string, unknown>;
}

/** Builds an event from what the area has at hand; null when this occurrence publishes nothing (a condition of the row). */
export type PayloadBuilder<I> = (input: I) => BuiltEvent | null;

/** The builders of a set of event types, each from the same input (a table's record as moved, and its context). */
export type PayloadBuilders<E extends EventType, I> = { readonly [K in E]: PayloadBuilder<I> };

/** A table's side events' builders: each from its own input (an item pulled, a deposit, a card scanned back). */
export type SideBuilders = { readonly [K in EventType]?: PayloadBuilder<never> };
