import type { Services } from "../../pipeline/services.ts";
import { warehouse } from "./state.ts";

// Work that waits (label purchases) is stored in state with its due time; the
// clock timers are only triggers. On reset/restore/import every timer is
// dropped and re-armed from the new state, and each callback re-checks the
// state, so a stale timer can never apply anything.

type Job = (services: Services, accountId: string, orderId: number, due: number) => Promise<void> | void;

const armed = new WeakMap<Services, Set<number>>();
let labelJob: Job | null = null;

/** Registered by orders.ts (breaks the import cycle between the two). */
export function setLabelJob(job: Job): void {
  labelJob = job;
}

export function armLabel(services: Services, accountId: string, orderId: number, due: number): void {
  const ids = armed.get(services) ?? new Set<number>();
  armed.set(services, ids);
  const id = services.clock.schedule(
    due,
    async () => {
      ids.delete(id);
      await labelJob?.(services, accountId, orderId, due);
    },
    `warehouse label purchase for order ${orderId}`,
  );
  ids.add(id);
}

/** Drops every armed timer and re-arms the label purchases in flight in the current state. */
export function rearm(services: Services): void {
  for (const id of armed.get(services) ?? []) services.clock.cancel(id);
  armed.set(services, new Set());
  for (const t of Object.values(warehouse(services).tenants))
    for (const o of Object.values(t.orders))
      if (o.status === "LABEL_PURCHASING" && o.due_at_ms !== null)
        armLabel(services, t.account_id, o.order_id, o.due_at_ms);
}
