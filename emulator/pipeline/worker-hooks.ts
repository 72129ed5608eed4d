import { withKeyLock } from "./key-lock.ts";
import { addChainWork } from "./reconcile.ts";
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
 * interval. The clock and the blocks reach it through the reconciler (pipeline/reconcile.ts: one pass per
 * change over every area's work, which requests wait for). Returns stop.
 */
export function startWorkerHooks(s: Services, w: AreaWorker): () => void {
  const offBus = s.bus.on("state.replaced", () => w.arm());
  w.arm(); // an emulator started from a state file may have due work
  const offWork = addChainWork(s, { run: () => w.run(), watching: () => w.watching() });
  return () => {
    offBus();
    offWork();
    w.cancel();
  };
}
