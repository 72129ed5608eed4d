import { portSlot } from "../../pipeline/runtime.ts";
import type { Services } from "../../pipeline/services.ts";
import { warehouse } from "./state.ts";

// Work that waits (label purchases) is stored in state with its due time; the
// clock timers are only triggers. On reset/restore/import every timer is
// dropped and re-armed from the new state, and each callback re-checks the
// state, so a stale timer can never apply anything.

type Job = (services: Services, accountId: string, orderId: number, due: number) => Promise<void> | void;

/** The area's label timers in one emulator: the armed clock ids and the job they run. */
export interface LabelTimers {
  armed: Set<number>;
  readonly job: Job;
}

/** Provided when the area starts (the job comes from orders.ts, which arms the timers: no import cycle). */
const LABELS = portSlot<LabelTimers>("warehouse label timers");

/** The area's start: this emulator's label timers, re-armed from the state. */
export function startLabelTimers(services: Services, job: Job): LabelTimers {
  const timers: LabelTimers = { armed: new Set(), job };
  services.runtime.provide(LABELS, timers);
  rearm(services);
  return timers;
}

export function armLabel(services: Services, accountId: string, orderId: number, due: number): void {
  const timers = services.runtime.of(LABELS);
  const ids = timers.armed;
  const id = services.clock.schedule(
    due,
    async () => {
      ids.delete(id);
      await timers.job(services, accountId, orderId, due);
    },
    `warehouse label purchase for order ${orderId}`,
  );
  ids.add(id);
}

/** Drops every armed timer and re-arms the label purchases in flight in the current state. */
export function rearm(services: Services): void {
  const timers = services.runtime.of(LABELS);
  for (const id of timers.armed) services.clock.cancel(id);
  timers.armed = new Set();
  for (const t of Object.values(warehouse(services).tenants))
    for (const o of Object.values(t.orders))
      if (o.status === "LABEL_PURCHASING" && o.due_at_ms !== null)
        armLabel(services, t.account_id, o.order_id, o.due_at_ms);
}
