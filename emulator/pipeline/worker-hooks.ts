import { withKeyLock } from "./key-lock.ts";
import type { Services } from "./services.ts";

/** The lock of the one queue every area's worker runs in (a state replacement takes it too: pipeline/generation.ts). */
export const WORKER_LOCK = "area-worker";

/**
 * Runs `fn` after every earlier worker run of any area of this emulator: one queue for all of them, so the
 * relayer (one account, shared by mystery and instant purchases) never sends two transactions at once.
 */
export function serialWork<T>(s: Services, fn: () => Promise<T>): Promise<T> {
  return withKeyLock(s, WORKER_LOCK, fn);
}

/** What an area's worker gives the hooks: take due work, arm its one timer, and whether the chain can change its rows. */
export interface AreaWorker {
  run(): Promise<void>;
  arm(): void;
  watching(): boolean;
  /** Cancels the armed timer (on stop). */
  cancel(): void;
}

/**
 * Hooks an area's worker to what can make its work due: every clock change, a
 * state import (re-arm), and blocks mined on the chain while it is watching (a
 * reveal, a payment sent from a wallet over JSON-RPC) — never a wall-time
 * interval. Block-driven runs coalesce: one pending at a time. Returns stop.
 */
export function startWorkerHooks(s: Services, w: AreaWorker): () => void {
  // The clock waits for the run it starts (an advance returns once the due work is done).
  const offClock = s.clock.onChange(() => w.run());
  const offBus = s.bus.on("state.replaced", () => w.arm());
  w.arm(); // an emulator started from a state file may have due work
  // At most one block-driven run waits while one runs: every block a burst mines (300 reveals after a
  // restart) would otherwise queue its own full pass over the watched rows, O(blocks × rows). Blocks mined
  // while the clock runs its timers need none: the clock's change, right after them, runs the worker.
  let queued = false;
  let last: Promise<void> = Promise.resolve();
  const offBlocks =
    s.chain?.onBlocks(() => {
      if (queued || s.clock.firing || !w.watching()) return;
      queued = true;
      last = last.then(() => {
        queued = false;
        return w.run().catch(() => undefined);
      });
    }) ?? (() => {});
  return () => {
    offClock();
    offBus();
    offBlocks();
    w.cancel();
  };
}
