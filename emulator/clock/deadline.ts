import type { VirtualClock } from "./clock.ts";

// A wait that ends on the emulator's clock: a signal a clock timer aborts at `at`. On the manual clock an
// advance ends it (no wall-clock wait in a test); on the realtime clock wall time does, as before. The
// caller keeps a wall-clock bound beside it: a manual clock nobody advances must not keep a network wait
// open forever (docs/decisions.md "2026-11-29: webhook attempt timeout on the emulator's clock").

export interface ClockDeadline {
  /** Aborted when the clock reaches the deadline. */
  signal: AbortSignal;
  /** Drops the timer: the wait ended first. */
  clear(): void;
}

export function clockDeadline(clock: VirtualClock, at: number, label: string): ClockDeadline {
  const controller = new AbortController();
  const timer = clock.schedule(at, () => controller.abort(), label);
  return { signal: controller.signal, clear: () => clock.cancel(timer) };
}
