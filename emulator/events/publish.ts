import { EVENT_SCHEMAS, type EventType } from "../../contract/events.ts";
import { declaringTable } from "../../contract/lifecycles/index.ts";
import type { Services } from "../pipeline/services.ts";
import { EVENT_LOG_CAP, eventLogOf } from "./log.ts";
import type { BuiltEvent, PayloadBuilders } from "./payloads.ts";

// The one way an event leaves the emulator: every event, whichever area or operator action publishes it, goes
// through `publishEvent`, which refuses a type no lifecycle table declares (contract/lifecycles/) and a `data`
// the schema its table declares refuses (read through the catalogue, contract/events.ts), appends the event to the one event log (log.ts) and hands it to
// webhook delivery (the webhooks area listens on the bus). Areas build payloads in their payloads.ts.

/** Why `data` is not a valid payload of `type` (the first issue, with its path), or null when it is. */
export function eventDataProblem(type: EventType, data: Record<string, unknown>): string | null {
  const r = EVENT_SCHEMAS[type].safeParse(data);
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  return `${issue.path.map(String).join(".") || "data"}: ${issue.message}`;
}

/**
 * Publishes a domain event for an account (a partner's or a tenant's): logged, then delivered to that account's
 * webhooks. `key` makes the event id (`"<type>:<key>"`), so the same occurrence is never delivered as two
 * events. Throws on a type no table declares or a payload its schema refuses: both are the emulator's bugs.
 */
export function publishEvent(
  services: Services,
  accountId: string,
  type: EventType,
  key: string,
  data: Record<string, unknown>,
  opts: { triggered?: boolean } = {},
): void {
  if (declaringTable(type) === null)
    throw new Error(`publishEvent: no lifecycle table declares ${type} (contract/lifecycles/)`);
  const problem = eventDataProblem(type, data);
  if (problem !== null) throw new Error(`publishEvent: ${type} data is not its contract's (${problem})`);
  const log = eventLogOf(services);
  log.push({
    account_id: accountId,
    type,
    key,
    data: structuredClone(data),
    at: services.clock.nowIso(),
    ...(opts.triggered ? { triggered: true as const } : {}),
  });
  if (log.length > EVENT_LOG_CAP) log.splice(0, log.length - EVENT_LOG_CAP);
  services.bus.emit("webhook.event", { account_id: accountId, type, key, data });
}

/** Publishes `type` as its builder makes it from `input` (nothing when the builder declines this occurrence). */
export function publishBuilt<E extends EventType, I>(
  services: Services,
  accountId: string,
  builders: PayloadBuilders<E, I>,
  type: E,
  input: I,
): void {
  const built: BuiltEvent | null = builders[type](input);
  if (built) publishEvent(services, accountId, type, built.key, built.data);
}
