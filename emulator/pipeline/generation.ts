import { VRF_LOCK } from "./chain.ts";
import { ApiError } from "./errors.ts";
import { withKeyLock } from "./key-lock.ts";
import { runtimeSlot, type RuntimeOwner } from "./runtime.ts";
import { WORKER_LOCK } from "./worker-hooks.ts";

// Which state work belongs to (docs/decisions.md "Work in flight across a state replacement"). A reset,
// restore or import replaces the store and the chain together; work that began before it (a chain read, a
// request held by a fault's latency, a receipt wait) must never write what it learned into the new state.
// The host bumps the generation before and after a replacement; work takes `generation(s)` when it starts and
// asks `replaced(s, since)` before it writes, and drops its result when the answer is yes.

const GENERATION = runtimeSlot("state generation", (): { value: number } => ({ value: 0 }));

/** The generation of the state now in the store (a number that only grows). */
export const generation = (s: RuntimeOwner): number => s.runtime.of(GENERATION).value;

/** Whether the state was replaced since `since` (a `generation(s)` taken when the work began). */
export const replaced = (s: RuntimeOwner, since: number): boolean => generation(s) !== since;

/**
 * A request handler's guard for work that waits on the chain and then writes state: take it when the handler
 * starts, call it after the wait and before the first write. It throws 409 `state_replaced` (nothing written;
 * the caller reads the new state and sends again) when a reset, restore or import ran meanwhile.
 */
export function stateFence(s: RuntimeOwner): () => void {
  const since = generation(s);
  return () => {
    if (replaced(s, since))
      throw new ApiError(
        409,
        "state_replaced",
        "The emulator's state was reset or restored while this request waited on the chain; nothing was written",
      );
  };
}

/** Marks everything begun so far as belonging to a state that is going away. */
export function bumpGeneration(s: RuntimeOwner): void {
  s.runtime.of(GENERATION).value++;
}

/**
 * Replaces the state (`swap`) with no worker pass or VRF fulfilment in flight: one under way finishes against
 * the old state first, and none starts until the new state and chain are both in place. The generation moves
 * before and after, so work outside those queues (a request's chain read) started on either side is dropped.
 */
export function replaceState<T>(s: RuntimeOwner, swap: () => Promise<T>): Promise<T> {
  // withKeyLock takes the keys in sorted order, as every other holder of both does (mystery's fail-reveal).
  return withKeyLock(s, [WORKER_LOCK, VRF_LOCK], async () => {
    bumpGeneration(s);
    try {
      return await swap();
    } finally {
      bumpGeneration(s);
    }
  });
}
