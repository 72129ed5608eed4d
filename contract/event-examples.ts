import { EVENT_CATALOGUE, type EventType } from "./events.ts";
import { Fixtures, type FixtureContext, type Payload } from "./event-fixtures.ts";

// A realistic `data` payload for every webhook event type: the example its lifecycle table declares
// (contract/lifecycles/), deterministic from the type and a sequence number. The emulator's
// `POST /_emulator/events` builds from here, and the receiver check sends these.

export { money, type FixtureContext, type Payload } from "./event-fixtures.ts";

/** The example `data` of an event type (different `n`, different ids and hashes). */
export function exampleEventData(type: EventType, ctx: FixtureContext): Payload {
  return EVENT_CATALOGUE[type].example(new Fixtures(type, ctx));
}
