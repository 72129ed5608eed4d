import { exampleEventData, type FixtureContext, type Payload } from "../../contract/event-examples.ts";
import { EVENT_TYPES, type EventType } from "../../contract/events.ts";

// The webhook event catalogue: the contract's example payload of every event
// type (the example its lifecycle table declares, contract/event-examples.ts runs it), with a caller's overrides
// merged over it.
// `POST /_emulator/events` builds from here; areas that publish real events
// may use the same builders so fixtures and live emissions share one shape.

export { money, type FixtureContext, type Payload } from "../../contract/event-examples.ts";

export const isEventType = (t: string): t is EventType => (EVENT_TYPES as readonly string[]).includes(t);

/** The fixture payload of an event type, with `overrides` deep-merged over it (objects merge, arrays and scalars replace). */
export function buildEventPayload(type: EventType, ctx: FixtureContext, overrides: Payload = {}): Payload {
  return deepMerge(exampleEventData(type, ctx), overrides);
}

const isPlain = (v: unknown): v is Payload => typeof v === "object" && v !== null && !Array.isArray(v);

function deepMerge(base: Payload, over: Payload): Payload {
  const out: Payload = { ...base };
  for (const [k, v] of Object.entries(over))
    out[k] = isPlain(v) && isPlain(out[k]) ? deepMerge(out[k] as Payload, v) : v;
  return out;
}
