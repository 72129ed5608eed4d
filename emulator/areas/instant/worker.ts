import type { Services } from "../../pipeline/services.ts";
import { onRelayerResumed } from "../../pipeline/relayer-port.ts";
import { isHeld } from "../../pipeline/relayer.ts";
import { runtimeSlot } from "../../pipeline/runtime.ts";
import { serialWork, startWorkerHooks } from "../../pipeline/worker-hooks.ts";
import { relayDue, resumePending } from "./custodial.ts";
import { settleAll } from "./purchases.ts";
import { instant } from "./state.ts";

// The area's worker: custodial RESERVED purchases are relayed when due, and
// PENDING ones when the relayer is back (custodial.ts, pipeline/relayer.ts); SUBMITTED purchases are brought up
// to date with the chain
// (opened → FULFILLED; past OPEN_TIMEOUT_MS unopened → paid back, FAILED) after
// blocks are mined, on every clock change, and at each purchase's due time (relay or
// timeout; one clock timer armed for the earliest, re-armed on state.replaced).

/** The worker's one armed timer, per emulator (its runtime). */
const TIMER = runtimeSlot("instant worker timer", (): { id: number | null } => ({ id: null }));

const watching = (s: Services) =>
  Object.values(instant(s).purchases).some((p) => p.status === "SUBMITTED" || isHeld(p.status));

export function armInstantWorker(s: Services): void {
  const timer = s.runtime.of(TIMER);
  if (timer.id !== null) s.clock.cancel(timer.id);
  timer.id = null;
  let due: number | null = null;
  for (const p of Object.values(instant(s).purchases)) {
    const at = p.status === "SUBMITTED" || isHeld(p.status) ? p.due_at_ms : null;
    if (at !== null && (due === null || at < due)) due = at;
  }
  if (due === null) return;
  timer.id = s.clock.schedule(Math.max(due, s.clock.now()), () => runInstantWorker(s), "instant worker");
}

/** Settles every SUBMITTED purchase, in the emulator's one worker queue; always re-arms the timer. */
export function runInstantWorker(s: Services): Promise<void> {
  return serialWork(s, async () => {
    try {
      if (s.chainHost && watching(s)) {
        await relayDue(s);
        await settleAll(s);
      }
    } catch (err) {
      console.error("[emulator] instant worker failed:", err);
    } finally {
      armInstantWorker(s);
    }
  });
}

export function startInstantWorker(s: Services): () => void {
  // The relayer switched back on: PENDING purchases are relayed before the switch answers.
  const offResume = onRelayerResumed(s, async () => {
    const n = resumePending(s);
    if (n > 0) await runInstantWorker(s);
    return n;
  });
  const offHooks = startWorkerHooks(s, {
    run: () => runInstantWorker(s),
    arm: () => armInstantWorker(s),
    watching: () => watching(s),
    cancel: () => {
      const { id } = s.runtime.of(TIMER);
      if (id !== null) s.clock.cancel(id);
    },
  });
  return () => {
    offResume();
    offHooks();
  };
}
