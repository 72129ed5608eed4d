import { describe, expect, it } from "vitest";
import { withKeyLock } from "../../emulator/pipeline/key-lock.ts";
import { Runtime } from "../../emulator/pipeline/runtime.ts";

const emulator = () => ({ runtime: new Runtime() });

// The per-key lock behind the check-await-write handlers: calls with one key
// run one at a time in arrival order, other keys do not wait, a throwing call
// releases its key, and several keys are taken without deadlock.

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("withKeyLock", () => {
  it("runs calls with one key one at a time, in arrival order; a later call sees what the earlier wrote", async () => {
    const scope = emulator();
    const state: { record: number | null } = { record: null };
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const call = (i: number) =>
      withKeyLock(scope, "tx:1", async () => {
        inside++;
        most = Math.max(most, inside);
        const seen = state.record; // check …
        await tick(); // … await (the chain) …
        if (seen === null) state.record = i; // … write
        order.push(i);
        inside--;
        return state.record;
      });
    const answers = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(call));
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(answers).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("does not hold back other keys or other scopes", async () => {
    const scope = emulator();
    let release!: () => void;
    const blocked = withKeyLock(scope, "a", () => new Promise<void>((r) => (release = r)));
    await tick();
    expect(await withKeyLock(scope, "b", () => "b ran")).toBe("b ran");
    expect(await withKeyLock(emulator(), "a", () => "another emulator ran")).toBe("another emulator ran");
    release();
    await blocked;
  });

  it("a call that throws releases the key, and its error reaches its caller only", async () => {
    const scope = emulator();
    const failed = withKeyLock(scope, "k", async () => {
      await tick();
      throw new Error("boom");
    });
    const next = withKeyLock(scope, "k", () => "next ran");
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe("next ran");
  });

  it("several keys are taken in one order, so overlapping calls cannot deadlock", async () => {
    const scope = emulator();
    const log: string[] = [];
    const run = (keys: string[], name: string) =>
      withKeyLock(scope, keys, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      });
    await Promise.all([run(["x", "y"], "A"), run(["y", "x"], "B"), run(["y"], "C"), run(["x", "x"], "D")]);
    // Every call ran alone (each start is followed by its own end).
    for (let i = 0; i < log.length; i += 2) expect(log[i]!.slice(0, 1)).toBe(log[i + 1]!.slice(0, 1));
    expect(log).toHaveLength(8);
  });
});
