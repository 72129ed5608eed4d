import { describe, it, expect } from "vitest";
import { startWorkerHooks } from "../../emulator/pipeline/worker-hooks.ts";
import type { Services } from "../../emulator/pipeline/services.ts";
import { VirtualClock } from "../../emulator/clock/clock.ts";
import { Runtime } from "../../emulator/pipeline/runtime.ts";
import { reconciled } from "../../emulator/pipeline/reconcile.ts";

// A burst of blocks (300 reveals mined after a restart) must not queue one full worker pass per block:
// at most one run waits while one runs.

function fakeServices() {
  const blockListeners = new Set<() => void>();
  const clock = new VirtualClock({ mode: "manual", start: 0 });
  const host = { onBlocks: (l: () => void) => (blockListeners.add(l), () => blockListeners.delete(l)) }; // no real chain
  const services = {
    clock,
    bus: { on: () => () => {} },
    chainHost: host,
    runtime: new Runtime(),
  } as unknown as Services;
  return { services, mine: () => blockListeners.forEach((l) => l()) };
}

describe("startWorkerHooks: block-driven runs", () => {
  it("coalesce: 50 blocks mined while a run is under way start at most one more run", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    let finish!: () => void;
    const stop = startWorkerHooks(services, {
      run: () => {
        runs++;
        return new Promise<void>((r) => (finish = r));
      },
      arm: () => {},
      watching: () => true,
      cancel: () => {},
    });
    mine();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) mine();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1); // the second waits for the first
    finish();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(2); // one run for the whole burst
    finish();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(2);
    // A block after that starts a run again.
    mine();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(3);
    finish();
    stop();
  });

  it("blocks mined by the clock's own timers start no run: the clock's change runs the worker once after them", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    const stop = startWorkerHooks(services, {
      run: async () => void runs++,
      arm: () => {},
      watching: () => true,
      cancel: () => {},
    });
    for (let i = 0; i < 10; i++)
      services.clock.after(100 + i, async () => {
        mine(); // a VRF fulfilment due at this time
        await new Promise((r) => setImmediate(r));
      });
    await services.clock.advance(1_000);
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1);
    stop();
  });

  it("does not run for blocks while nothing on chain is watched", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    const stop = startWorkerHooks(services, {
      run: async () => void runs++,
      arm: () => {},
      watching: () => false,
      cancel: () => {},
    });
    for (let i = 0; i < 5; i++) mine();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(0);
    stop();
  });
});

describe("reconciled: the request barrier", () => {
  it("costs nothing when nothing changed; after blocks it waits for the pass that covers them, and runs none itself", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    let finish!: () => void;
    const stop = startWorkerHooks(services, {
      run: () => {
        runs++;
        return new Promise<void>((r) => (finish = r));
      },
      arm: () => {},
      watching: () => true,
      cancel: () => {},
    });
    expect(reconciled(services)).toBeNull(); // nothing mined: no await at all
    mine();
    const waiting = reconciled(services);
    expect(waiting).not.toBeNull();
    let passed = false;
    void waiting!.then(() => (passed = true));
    await new Promise((r) => setImmediate(r));
    expect([runs, passed]).toEqual([1, false]); // the block's one pass runs; the read waits for it
    // More reads meanwhile start no run of their own.
    for (let i = 0; i < 20; i++) void reconciled(services);
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1);
    finish();
    await new Promise((r) => setImmediate(r));
    expect([runs, passed]).toEqual([1, true]);
    expect(reconciled(services)).toBeNull();
    stop();
  });

  it("a block mined during a pass: a read after it waits for the next pass, which covers it", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    const finishers: Array<() => void> = [];
    const stop = startWorkerHooks(services, {
      run: () => {
        runs++;
        return new Promise<void>((r) => finishers.push(r));
      },
      arm: () => {},
      watching: () => true,
      cancel: () => {},
    });
    mine();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1);
    mine(); // while the first pass runs
    let passed = false;
    void reconciled(services)!.then(() => (passed = true));
    finishers[0]!();
    await new Promise((r) => setImmediate(r));
    expect([runs, passed]).toEqual([2, false]); // the first pass started before that block: not enough
    finishers[1]!();
    await new Promise((r) => setImmediate(r));
    expect([runs, passed]).toEqual([2, true]);
    stop();
  });

  it("the clock's change reconciles: blocks mined by its timers are covered once it has run the workers", async () => {
    const { services, mine } = fakeServices();
    let runs = 0;
    const stop = startWorkerHooks(services, {
      run: async () => void runs++,
      arm: () => {},
      watching: () => true,
      cancel: () => {},
    });
    services.clock.after(100, () => mine());
    await services.clock.advance(1_000);
    expect(runs).toBe(1);
    expect(reconciled(services)).toBeNull();
    stop();
  });
});
