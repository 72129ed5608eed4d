import { z } from "zod";
import { isoTime, json, ownRecord } from "../state/fields.ts";
import { defineSlice } from "../state/slices.ts";
import type { Services } from "../pipeline/services.ts";

// The one event log: every event the publisher (publish.ts) hands to webhook delivery, oldest first, in the
// store (exported, restored and reset with the rest). The areas' control views read it filtered
// (GET /_emulator/mystery/events, /_emulator/instant/events); only publish.ts writes it.

/** The log keeps this many events (the oldest are dropped). */
export const EVENT_LOG_CAP = 2000;

export interface EventLogRow {
  account_id: string;
  type: string;
  key: string;
  data: Record<string, unknown>;
  at: string;
  /** Set on an event the operator triggered (POST /_emulator/events): a fixture, no area's own. */
  triggered?: true;
}

interface EventLogSlice {
  log: EventLogRow[];
}

const row = z.strictObject({
  account_id: z.string(),
  type: z.string(),
  key: z.string(),
  data: ownRecord(json),
  at: isoTime,
  triggered: z.literal(true).optional(),
});

const EVENT_LOG = defineSlice<EventLogSlice>({
  name: "events",
  init: () => ({ log: [] }),
  schema: z.strictObject({ log: z.array(row) }) as z.ZodType<EventLogSlice>,
});

/** The log itself (publish.ts appends to it). */
export const eventLogOf = (s: Services): EventLogRow[] => s.store.slice(EVENT_LOG).log;

/** The events an area published (of `types`, never the operator's triggered ones), filtered as a control view asks. */
export function publishedEvents(
  s: Services,
  types: readonly string[],
  filter: { account_id?: string; type?: string },
): EventLogRow[] {
  return eventLogOf(s).filter(
    (e) =>
      !e.triggered &&
      types.includes(e.type) &&
      (!filter.account_id || e.account_id === filter.account_id) &&
      (!filter.type || e.type === filter.type),
  );
}
