// One virtual clock drives everything that waits (DESIGN "Time").
// realtime: virtual time = wall time + offset; timers fire as wall time passes.
// manual: time moves only through advance()/set(); advancing runs every due
// timer in time order, awaiting each, so long schedules finish instantly.

import { isoOf } from "../../contract/time.ts";
import { isClockTime, TIME_RANGE_TEXT } from "./bounds.ts";

export type ClockMode = "realtime" | "manual";

/** The host's wall-clock time (unix ms): the one place the emulator reads it (an eslint rule refuses Date.now elsewhere). */
export const hostNow = (): number => Date.now();

export interface TimerInfo {
  id: number;
  at: number;
  label: string;
}

interface Timer extends TimerInfo {
  fn: () => unknown | Promise<unknown>;
}

interface Hold {
  until: number;
  done: Promise<void>;
  /** The time move (`setTime` run) that started it. */
  move: number;
}

export type ClockListener = (now: number) => void | Promise<void>;

export class VirtualClock {
  private _mode: ClockMode;
  /** manual: the frozen time; realtime: virtual - wall offset base. */
  private frozenAt: number;
  private offset: number;
  private timers = new Map<number, Timer>();
  private nextId = 1;
  private wallTimer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> = Promise.resolve();
  private listeners = new Set<ClockListener>();
  /** Work timers started without the clock waiting for it (see `hold`). */
  private holds = new Set<Hold>();
  /** Time moves started (`setTime` runs), the one running included: a hold belongs to the one that started it. */
  private timeMoves = 0;
  private firingTimers = false;
  /** Time moves whose listeners were called; the one calling them now, or null. */
  private moves = 0;
  private notifyingMove: number | null = null;
  private readonly wallNow: () => number;

  constructor(opts: { mode: ClockMode; start?: number; wallNow?: () => number }) {
    this.wallNow = opts.wallNow ?? hostNow;
    this._mode = opts.mode;
    const start = opts.start ?? this.wallNow();
    this.frozenAt = start;
    this.offset = start - this.wallNow();
  }

  get mode(): ClockMode {
    return this._mode;
  }

  now(): number {
    return this._mode === "manual" ? this.frozenAt : this.wallNow() + this.offset;
  }

  /** The host's wall-clock time, whatever the virtual time: for stamps a receiver compares with its own clock. */
  wall(): number {
    return this.wallNow();
  }

  nowIso(): string {
    return isoOf(this.now());
  }

  /** True while a time move runs its due timers; its listeners (`onChange`) are called after them. */
  get firing(): boolean {
    return this.firingTimers;
  }

  /** While a time move calls its listeners (one after another, in the order they subscribed): its number; else null. */
  get notifying(): number | null {
    return this.notifyingMove;
  }

  /** Called after every time jump (chain block time follows the clock). */
  onChange(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setMode(mode: ClockMode): void {
    if (mode === this._mode) return;
    const now = this.now();
    this._mode = mode;
    this.frozenAt = now;
    this.offset = now - this.wallNow();
    this.armWallTimer();
  }

  /** Schedules fn at virtual time `at` (ms). Returns the timer id. */
  schedule(at: number, fn: () => unknown | Promise<unknown>, label = "timer"): number {
    const id = this.nextId++;
    this.timers.set(id, { id, at, fn, label });
    this.armWallTimer();
    return id;
  }

  after(ms: number, fn: () => unknown | Promise<unknown>, label?: string): number {
    return this.schedule(this.now() + Math.max(0, ms), fn, label);
  }

  cancel(id: number): void {
    this.timers.delete(id);
    this.armWallTimer();
  }

  /** Resolves when virtual time reaches now+ms (in manual mode: when advanced past it). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve, "sleep"));
  }

  pending(): TimerInfo[] {
    return [...this.timers.values()]
      .sort((a, b) => a.at - b.at || a.id - b.id)
      .map(({ id, at, label }) => ({ id, at, label }));
  }

  /**
   * Work a timer started and does not make the clock wait for (a webhook attempt on a slow receiver): other
   * timers keep firing. Within the time move that started it, time stops short of `until` until it settles
   * (a network wait takes no virtual time of its own: the work gets its answer first). A later move may reach
   * `until` (a timer there, a deadline, may end the work: the caller let that much time pass) but passes it only
   * once the work settled. An advance's promise resolves only once every open work settled.
   */
  hold(work: Promise<unknown>, until: number): void {
    const h: Hold = {
      until,
      done: work.then(
        () => undefined,
        () => undefined,
      ),
      move: this.timeMoves,
    };
    this.holds.add(h);
    void h.done.then(() => this.holds.delete(h));
  }

  /** Moves time forward by ms, running every timer that falls due, in order. */
  advance(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("advance needs a non-negative number of ms");
    return this.setTime(this.now() + ms);
  }

  /** Jumps to an absolute time (never backwards), running due timers in order. */
  setTime(to: number): Promise<number> {
    // Whole ms: an in-process caller may wait a fraction (the SDK's jittered backoff); the clock ticks in ms.
    const target = Number.isFinite(to) ? Math.ceil(to) : to;
    // Past the range, Date's ISO text breaks and every later call with it (clock/bounds.ts).
    if (!isClockTime(target)) throw new RangeError(`the clock must stay ${TIME_RANGE_TEXT} (asked for ${target})`);
    const run = this.running.then(async () => {
      const end = Math.max(target, this.now());
      const move = ++this.timeMoves;
      this.firingTimers = true;
      try {
        for (;;) {
          const next = this.nextDue(end);
          // Work held until before the next stop settles first; it may have scheduled something due sooner.
          if (await this.settleHolds(next ? next.at : end, move)) continue;
          if (!next) break;
          this.moveTo(next.at);
          this.timers.delete(next.id);
          await this.fire(next);
        }
      } finally {
        this.firingTimers = false;
      }
      this.moveTo(end);
      await this.notify();
      this.armWallTimer();
      return this.now();
    });
    this.running = run.then(
      () => undefined,
      () => undefined,
    );
    // The caller waits for held work still open (an advance returns once every attempt has its answer, as
    // callers expect); the clock itself (the next setTime, its timers) does not.
    return run.then(async (now) => {
      await Promise.all([...this.holds].map((h) => h.done));
      return now;
    });
  }

  /**
   * Sets the time back to `to`: the one move backwards, for a restore (the state is put back as it was
   * at `to`, and the time with it). Pending timers stay; the areas re-arm theirs from the restored state.
   */
  rewind(to: number): Promise<void> {
    if (!isClockTime(to)) throw new RangeError(`the clock must stay ${TIME_RANGE_TEXT} (asked for ${to})`);
    const run = this.running.then(() => {
      if (this._mode === "manual") this.frozenAt = to;
      else this.offset = to - this.wallNow();
      this.armWallTimer();
    });
    this.running = run;
    return run;
  }

  /** Waits for held work that must settle before time moves to `t` (see `hold`); true when there was any. */
  private async settleHolds(t: number, move: number): Promise<boolean> {
    const due = [...this.holds].filter((h) => (h.move === move ? h.until <= t : h.until < t));
    if (!due.length) return false;
    await Promise.all(due.map((h) => h.done));
    return true;
  }

  /** Runs timers already due (realtime: called from the wall timer). */
  runDue(): Promise<number> {
    return this.setTime(this.now());
  }

  dispose(): void {
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.wallTimer = null;
    this.timers.clear();
    this.holds.clear();
  }

  private nextDue(end: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) {
      if (t.at <= end && (!best || t.at < best.at || (t.at === best.at && t.id < best.id))) best = t;
    }
    return best;
  }

  private moveTo(t: number): void {
    if (this._mode === "manual") this.frozenAt = Math.max(this.frozenAt, t);
    else if (t > this.now()) this.offset = t - this.wallNow();
  }

  private async fire(t: Timer): Promise<void> {
    try {
      await t.fn();
    } catch (err) {
      // A failing job must not stop the clock; it reports and the schedule goes on.
      console.error(`[emulator] scheduled job "${t.label}" failed:`, err);
    }
  }

  private async notify(): Promise<void> {
    this.notifyingMove = ++this.moves;
    try {
      for (const l of this.listeners) {
        try {
          await l(this.now());
        } catch (err) {
          console.error("[emulator] clock listener failed:", err);
        }
      }
    } finally {
      this.notifyingMove = null;
    }
  }

  private armWallTimer(): void {
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.wallTimer = null;
    if (this._mode !== "realtime" || this.timers.size === 0) return;
    let soonest = Infinity;
    for (const t of this.timers.values()) soonest = Math.min(soonest, t.at);
    const delay = Math.max(0, Math.min(soonest - this.now(), 2 ** 31 - 1));
    this.wallTimer = setTimeout(() => {
      this.wallTimer = null;
      void this.runDue();
    }, delay);
    this.wallTimer.unref?.();
  }
}
