import { describe, it, expect } from "vitest";
import { VirtualClock } from "../../emulator/clock/clock.ts";
import { clockDeadline } from "../../emulator/clock/deadline.ts";

const T0 = Date.parse("2026-01-15T12:00:00Z");

describe("VirtualClock (manual)", () => {
  it("does not move on its own", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    await new Promise((r) => setTimeout(r, 5));
    expect(clock.now()).toBe(T0);
  });

  it("runs due timers in time order, at their own time, when advanced", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    const seen: [string, number][] = [];
    clock.after(300, () => seen.push(["c", clock.now()]));
    clock.after(100, () => seen.push(["a", clock.now()]));
    clock.after(200, () => seen.push(["b", clock.now()]));
    clock.after(5000, () => seen.push(["late", clock.now()]));
    await clock.advance(1000);
    expect(seen).toEqual([
      ["a", T0 + 100],
      ["b", T0 + 200],
      ["c", T0 + 300],
    ]);
    expect(clock.now()).toBe(T0 + 1000);
    expect(clock.pending().map((t) => t.at)).toEqual([T0 + 5000]);
  });

  it("runs timers scheduled by timers within the same advance (retry chains)", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    const attempts: number[] = [];
    const attempt = () => {
      attempts.push(clock.now() - T0);
      if (attempts.length < 6) clock.after(2 ** attempts.length * 1000, attempt);
    };
    clock.after(0, attempt);
    await clock.advance(24 * 3600_000);
    expect(attempts).toEqual([0, 2000, 6000, 14000, 30000, 62000]);
  });

  it("cancels timers and resolves sleeps when advanced past them", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    let fired = false;
    const id = clock.after(10, () => (fired = true));
    clock.cancel(id);
    let woke = false;
    const sleeping = clock.sleep(50).then(() => (woke = true));
    await clock.advance(20);
    expect(fired).toBe(false);
    expect(woke).toBe(false);
    await clock.advance(30);
    await sleeping;
    expect(woke).toBe(true);
  });

  it("keeps going when a job throws", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    let after = false;
    const err = console.error;
    console.error = () => {};
    clock.after(1, () => {
      throw new Error("boom");
    });
    clock.after(2, () => (after = true));
    await clock.advance(5);
    console.error = err;
    expect(after).toBe(true);
  });

  it("rejects negative advances and never goes backwards", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    expect(() => clock.advance(-1)).toThrow(RangeError);
    await clock.setTime(T0 - 1000);
    expect(clock.now()).toBe(T0);
  });

  it("notifies listeners after a jump", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    const seen: number[] = [];
    clock.onChange((now) => void seen.push(now));
    await clock.advance(42);
    expect(seen).toEqual([T0 + 42]);
  });
});

describe("VirtualClock (realtime)", () => {
  it("follows wall time with an offset and keeps virtual time across mode switches", async () => {
    let wall = 1_000;
    const clock = new VirtualClock({ mode: "realtime", start: T0, wallNow: () => wall });
    wall += 500;
    expect(clock.now()).toBe(T0 + 500);
    clock.setMode("manual");
    wall += 10_000;
    expect(clock.now()).toBe(T0 + 500);
    clock.setMode("realtime");
    wall += 100;
    expect(clock.now()).toBe(T0 + 600);
    await clock.advance(1000);
    expect(clock.now()).toBe(T0 + 1600);
    clock.dispose();
  });
});

describe("VirtualClock.hold (work a timer starts without the clock waiting for it)", () => {
  it("other timers fire while it is open; time stops short of `until` until it settles; its advance waits for it", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    let release!: () => void;
    const work = new Promise<void>((r) => (release = r));
    const seen: number[] = [];
    clock.after(10, () => clock.hold(work, clock.now() + 1_000));
    clock.after(500, () => void seen.push(clock.now()));
    clock.after(2_000, () => void seen.push(clock.now()));
    let done = false;
    const advance = clock.advance(3_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    // The timer at +500 ran; the one at +2000 waits behind the open work (held until +1010).
    expect(seen).toEqual([T0 + 500]);
    expect(clock.now()).toBe(T0 + 500);
    expect(done).toBe(false);
    release();
    await advance;
    expect(seen).toEqual([T0 + 500, T0 + 2_000]);
    expect(clock.now()).toBe(T0 + 3_000);
  });

  it("a later advance's timers are not held by work an earlier one started (its promise waits for it)", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    let release!: () => void;
    clock.after(0, () => clock.hold(new Promise<void>((r) => (release = r)), clock.now() + 60_000));
    const first = clock.runDue();
    const seen: number[] = [];
    clock.after(1_000, () => void seen.push(clock.now()));
    let done = false;
    const second = clock.advance(5_000).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([T0 + 1_000]);
    expect(clock.now()).toBe(T0 + 5_000);
    expect(done).toBe(false);
    release();
    await Promise.all([first, second]);
  });

  it("a later advance reaches `until`, where a clock deadline ends the work, and passes it only once it settled", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    const deadline = clockDeadline(clock, T0 + 1_000, "deadline");
    let settledAt: number | null = null;
    // Work that ends only when its deadline fires (a receiver that never answers), a few turns after the abort.
    const work = new Promise<void>((r) => deadline.signal.addEventListener("abort", () => r()))
      .then(() => Promise.resolve())
      .then(() => void (settledAt = clock.now()));
    clock.after(0, () => clock.hold(work, T0 + 1_000));
    const first = clock.runDue(); // the move that started it: its promise waits for the work
    const seen: Array<[number, number | null]> = [];
    clock.after(2_000, () => void seen.push([clock.now(), settledAt]));
    await clock.advance(5_000);
    expect(settledAt).toBe(T0 + 1_000);
    expect(seen).toEqual([[T0 + 2_000, T0 + 1_000]]);
    await first;
    expect(clock.pending()).toEqual([]);
  });

  it("a clock deadline cleared before it fires leaves no timer and never aborts", async () => {
    const clock = new VirtualClock({ mode: "manual", start: T0 });
    const deadline = clockDeadline(clock, T0 + 1_000, "deadline");
    expect(clock.pending()).toEqual([{ id: 1, at: T0 + 1_000, label: "deadline" }]);
    deadline.clear();
    await clock.advance(5_000);
    expect(clock.pending()).toEqual([]);
    expect(deadline.signal.aborted).toBe(false);
  });
});
