import { describe, it, expect } from "vitest";
import { startWorkerHooks } from "../../emulator/pipeline/worker-hooks.ts";
import type { Services } from "../../emulator/pipeline/services.ts";
import { VirtualClock } from "../../emulator/clock/clock.ts";

// A burst of blocks (300 reveals mined after a restart) must not queue one full worker pass per block:
// at most one run waits while one runs.

function fakeServices() {
  const blockListeners = new Set<() => void>();
  const clock = new VirtualClock({ mode: "manual", start: 0 });
  const host = { onBlocks: (l: () => void) => (blockListeners.add(l), () => blockListeners.delete(l)) }; // no real chain
  const services = { clock, bus: { on: () => () => {} }, chain: host } as unknown as Services;
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
