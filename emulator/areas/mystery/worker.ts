import type { Services } from "../../pipeline/services.ts";
import { runtimeSlot } from "../../pipeline/runtime.ts";
import { serialWork, startWorkerHooks } from "../../pipeline/worker-hooks.ts";
import { isForwarding, runDueTransfers, watchOffers } from "./buyback/forwarding.ts";
import { settleAllFromChain } from "./purchases/purchases.ts";
import { custodialDue, runDueCustodial } from "./purchases/relay.ts";
import { expireDueRedemptions, expiryDue, runDueRedemptions, watchingRedemptions } from "./redemption/jobs.ts";
import { JOB_RETRY_MS, type JobErrorHandler } from "./jobs.ts";
import { mystery } from "./state.ts";
import { creditChainDeposits, watchingDeposits } from "./wallet/deposit-watch.ts";

// The area's worker. Work that waits is stored in state with its due time
// (custodial relay steps, transfer retries, warehouse steps, redemption expiry, offer deadlines); one clock timer is
// armed for the earliest of them and re-armed after every run and on state.replaced. The
// chain is watched (VRF reveals, accepted offers, deposits) by the reconciler (pipeline/reconcile.ts): after every
// clock change and every block mined, never by a read.

/** The worker's one armed timer, per emulator (its runtime). */
const TIMER = runtimeSlot("mystery worker timer", (): { id: number | null } => ({ id: null }));

/** Runs fn after every earlier worker run of this emulator, of any area (no two runs send transactions at once). */
export const serial = (s: Services, fn: () => Promise<void>): Promise<void> => serialWork(s, fn);

function nextDue(s: Services): number | null {
  const slice = mystery(s);
  let due: number | null = null;
  const take = (t: number | null) => {
    if (t !== null && Number.isFinite(t) && (due === null || t < due)) due = t;
  };
  for (const t of Object.values(slice.transfers)) if (isForwarding(t)) take(t.due_at_ms);
  if (s.chainHost) for (const p of Object.values(slice.purchases)) take(custodialDue(p));
  // An active offer expires once its deadline (seconds) has passed: the offers step finds it then, reads don't.
  if (s.chainHost)
    for (const o of Object.values(slice.offers)) if (o.status === "active") take((o.deadline + 1) * 1000);
  if (slice.warehouse_mode === "auto") for (const r of Object.values(slice.redemptions)) take(r.due_at_ms);
  // Expiry is the service's own clock, not the warehouse's: it runs in manual mode too.
  for (const r of Object.values(slice.redemptions)) take(expiryDue(r));
  return due;
}

/** Arms the one timer for the earliest due work, never before `notBefore` (a run that had failures backs off). */
export function armWorker(s: Services, notBefore = s.clock.now()): void {
  const timer = s.runtime.of(TIMER);
  if (timer.id !== null) s.clock.cancel(timer.id);
  timer.id = null;
  const due = nextDue(s);
  if (due === null) return;
  timer.id = s.clock.schedule(Math.max(due, notBefore, s.clock.now()), () => runWorker(s), "mystery worker");
}

/**
 * Watches the chain, then takes every due step; safe to call any time. A job
 * that throws is logged and the others still run; the timer is always re-armed
 * (after a failure, not sooner than JOB_RETRY_MS, so a job that keeps failing
 * cannot spin the clock), so later work (buyback retries, expiries) still runs.
 */
export function runWorker(s: Services): Promise<void> {
  return serial(s, async () => {
    let failed = false;
    const onError: JobErrorHandler = (job, err) => {
      failed = true;
      console.error(`[emulator] mystery worker: ${job} failed:`, err);
    };
    const step = async (job: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        onError(job, err);
      }
    };
    try {
      if (s.chainHost) {
        await step("custodial relay", () => runDueCustodial(s, onError));
        await step("reveals", () => settleAllFromChain(s, onError));
        await step("offers", () => watchOffers(s, onError));
        await step("buyback transfers", () => runDueTransfers(s, onError));
        await step("deposits", () => creditChainDeposits(s));
      }
      await step("redemption expiry", () => expireDueRedemptions(s, onError));
      if (mystery(s).warehouse_mode === "auto") await step("warehouse steps", () => runDueRedemptions(s, onError));
    } finally {
      armWorker(s, failed ? s.clock.now() + JOB_RETRY_MS : undefined);
    }
  });
}

/** Something on chain may still change our rows (unrevealed purchases, open offers, unpaid redemption shipping). */
export function watching(s: Services): boolean {
  const slice = mystery(s);
  return (
    Object.values(slice.purchases).some((p) => p.status === "SUBMITTED") ||
    Object.values(slice.offers).some((o) => o.status === "active") ||
    watchingRedemptions(s) ||
    watchingDeposits(s)
  );
}

export function startWorker(s: Services): () => void {
  return startWorkerHooks(s, {
    run: () => runWorker(s),
    arm: () => armWorker(s),
    watching: () => watching(s),
    cancel: () => {
      const { id } = s.runtime.of(TIMER);
      if (id !== null) s.clock.cancel(id);
    },
  });
}
