import { afterEach, describe, expect, it, vi } from "vitest";
import request from "supertest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator } from "../../emulator/index.ts";
import { readStateFile, STATE_FILE_INTERVAL_MS, writeThrough } from "../../emulator/state/state-file.ts";

// The promise `--state FILE` makes (every change on disk within a second), checked on fake interval
// timers rather than the wall clock: a loaded machine can delay a tick, never change which tick writes.

afterEach(() => {
  vi.useRealTimers();
});

describe("--state write-through timing", () => {
  it("a change is on disk after the next tick (under a second), and not before it", async () => {
    expect(STATE_FILE_INTERVAL_MS).toBeLessThan(1000);
    const emu = await createEmulator({ seed: 1, clock: "manual", port: 0 });
    const file = join(mkdtempSync(join(tmpdir(), "emu-tick-")), "state.json");
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const writer = writeThrough(file, () => emu.exportState());
    try {
      vi.advanceTimersByTime(STATE_FILE_INTERVAL_MS);
      expect(Object.values(readStateFile(file)!.state.keys).map((k) => k.label)).not.toContain("tick-test");
      const res = await request(emu.url).post("/_emulator/keys").send({ kind: "partner", label: "tick-test" });
      expect(res.status).toBe(201);
      vi.advanceTimersByTime(STATE_FILE_INTERVAL_MS - 1);
      expect(Object.values(readStateFile(file)!.state.keys).map((k) => k.label)).not.toContain("tick-test");
      vi.advanceTimersByTime(1);
      expect(Object.values(readStateFile(file)!.state.keys).map((k) => k.label)).toContain("tick-test");
    } finally {
      writer.stop();
      await emu.close();
    }
  });
});
