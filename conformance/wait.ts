import type { CheckContext, WaitClock } from "./types.ts";

// Outside emulator mode a check cannot advance the target's clock: it waits in real time for what the
// emulator mode would make happen at once (a reveal, a delivery, a retry), bounded by --max-wait, and says
// in its notes how long it waited.

/** The default of --max-wait. */
export const DEFAULT_MAX_WAIT_MS = 180_000;

const WALL: WaitClock = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/**
 * Polls `probe` until it gives a value, at most `ms` (capped by the check's --max-wait): 50 ms at first,
 * backing off to 2 s. Notes the wait ("waited 1.2 s for …"); undefined when the time ran out.
 */
export async function waitFor<T>(
  ctx: CheckContext,
  what: string,
  probe: () => Promise<T | undefined>,
  ms = Infinity,
): Promise<T | undefined> {
  const cap = Math.min(ms, ctx.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const time = ctx.time ?? WALL;
  const t0 = time.now();
  for (let wait = 50; ; wait = Math.min(wait * 2, 2_000)) {
    const v = await probe();
    const spent = time.now() - t0;
    if (v !== undefined || spent > cap) {
      ctx.note(
        `waited ${(spent / 1000).toFixed(1)} s in real time for ${what}${v === undefined ? ` (gave up at ${cap / 1000} s)` : ""}`,
      );
      return v;
    }
    await time.sleep(Math.min(wait, Math.max(0, cap - spent) + 1));
  }
}

/** Sleeps `ms` of real time (a retry that comes later, a window that must pass), noted; refused beyond --max-wait. */
export async function waitOut(ctx: CheckContext, what: string, ms: number): Promise<void> {
  const cap = ctx.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (ms > cap) throw new Error(`${what} takes ${ms / 1000} s, more than --max-wait ${cap / 1000} s`);
  await (ctx.time ?? WALL).sleep(ms);
  ctx.note(`waited ${(ms / 1000).toFixed(1)} s in real time for ${what}`);
}
