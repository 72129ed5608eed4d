import { runtimeSlot } from "./runtime.ts";
import type { Services } from "./services.ts";

// The reconciler (docs/architecture.md "State, time, events, chain"; docs/decisions.md "Reads do not write"):
// what the chain says (a reveal, a deposit, an accepted offer) reaches the books once, in the worker queue, after
// each change that may carry it: a block mined, the clock moved, the state replaced. A request does no settling of
// its own: the pipeline awaits `reconciled(s)` before the handler, so an answer given after block N reflects
// the settlement of block N, and a read that finds nothing new waits for nothing (two counters compared, no RPC).

/** An area's chain work: its full worker run, and whether the chain can still change its rows. */
export interface ChainWork {
  run(): Promise<void>;
  watching(): boolean;
}

interface Reconciler {
  work: Set<ChainWork>;
  /** Changes noted so far (blocks mined, states replaced, work asked for); only grows. */
  seen: number;
  /** The highest `seen` a finished pass started after. */
  done: number;
  /** A block pass waits to start (at most one: a burst of blocks coalesces into it). */
  queued: boolean;
  /** The clock move (`Clock.notifying`) whose pass this reconciler started last. */
  clockPassOf: number | null;
  last: Promise<void>;
  off: (() => void) | null;
}

const RECONCILER = runtimeSlot("chain reconciler", (): Reconciler => ({
  work: new Set(),
  seen: 0,
  done: 0,
  queued: false,
  clockPassOf: null,
  last: Promise.resolve(),
  off: null,
}));

/**
 * Registers an area's chain work (its worker, pipeline/worker-hooks.ts). The first one subscribes the
 * reconciler: every clock change runs all work (the advance waits for it); each block mined, or a state
 * replaced, queues one pass over the work that is watching. Returns the removal.
 */
export function addChainWork(s: Services, w: ChainWork): () => void {
  const r = s.runtime.of(RECONCILER);
  r.work.add(w);
  r.off ??= subscribe(s, r);
  return () => {
    r.work.delete(w);
    if (r.work.size === 0) {
      r.off?.();
      r.off = null;
    }
  };
}

function subscribe(s: Services, r: Reconciler): () => void {
  // The clock waits for the run it starts; work due at the new time (a timeout, an expiry) runs there.
  const offClock = s.clock.onChange(() => {
    r.clockPassOf = s.clock.notifying;
    return pass(s, r, true);
  });
  const offBus = s.bus.on("state.replaced", () => noteChainChange(s));
  // Blocks mined while the clock runs its timers, or by a listener of its change called before this one's pass
  // (the chain's empty block at the new time), are covered by that pass, which starts after them.
  const offBlocks =
    s.chainHost?.onBlocks(() => {
      r.seen++;
      const move = s.clock.notifying;
      if (s.clock.firing || (move !== null && r.clockPassOf !== move)) return;
      void queue(s, r);
    }) ?? (() => {});
  return () => {
    offClock();
    offBus();
    offBlocks();
  };
}

/** Something the chain work must look at happened outside a block (a state replaced, a deposit address added). */
export function noteChainChange(s: Services): void {
  const r = s.runtime.of(RECONCILER);
  if (!r.off) return;
  r.seen++;
  void queue(s, r);
}

async function pass(s: Services, r: Reconciler, all: boolean): Promise<void> {
  const upTo = r.seen;
  for (const w of [...r.work]) {
    if (!all && !w.watching()) continue;
    try {
      await w.run();
    } catch (err) {
      console.error("[emulator] reconciler: a worker run failed:", err);
    }
  }
  if (upTo > r.done) r.done = upTo;
}

function queue(s: Services, r: Reconciler): Promise<void> {
  if (r.queued) return r.last;
  r.queued = true;
  r.last = r.last.then(() => {
    r.queued = false;
    // A clock pass since covered it: nothing to do.
    return r.done >= r.seen ? undefined : pass(s, r, false);
  });
  return r.last;
}

/**
 * The request barrier: resolves once every change noted so far is reconciled; null (nothing to await) when
 * it already is, the common read. It never settles anything itself: it waits for the worker queue's pass.
 */
export function reconciled(s: Services): Promise<void> | null {
  const r = s.runtime.of(RECONCILER);
  // An attached node (--rpc-url) also mines what others send it, which this process never sees: one look at its
  // head per request (the in-process chain needs none: every block it mines goes through the emulator).
  const chain = s.chainHost?.gateway;
  // A node that does not answer is the handler's to report (or not: a catalog read needs no chain).
  if (chain?.attached && r.off)
    return chain.poll().then(
      () => catchUp(s, r),
      () => catchUp(s, r),
    );
  return r.done >= r.seen ? null : catchUp(s, r);
}

async function catchUp(s: Services, r: Reconciler): Promise<void> {
  const target = r.seen;
  // A pass queued now starts after `target` was noted, so one await suffices; the loop is for a pass already
  // running (it started before target and covers less).
  while (r.done < target) await queue(s, r);
}
