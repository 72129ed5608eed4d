import { describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { createEmulator, type StateExport } from "../../emulator/index.ts";
import { MAX_TIME_MS } from "../../emulator/clock/bounds.ts";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";

// Issue 37 item 12: every time and number a caller supplies is bounded to what
// every later step can handle. The clock stays between 1970 and the end of
// 9999 (four-digit years, month labels that sort, an export the emulator
// itself imports); an advance past it is a 400 that changes nothing.

describe("the clock's range", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx));

  const now = async () => (await api.get("/_emulator/clock").expect(200)).body.data.now_ms as number;

  /** The emulator still answers and imports its own export. */
  async function stillWhole(): Promise<void> {
    const card = await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", emu.key("demo"));
    expect(card.status).toBe(200);
    const doc = (await api.get("/_emulator/state").expect(200)).body.data as StateExport;
    expect((await api.put("/_emulator/state").send(doc)).status).toBe(200);
  }

  for (const [what, body] of [
    ["advance {ms: 1e17}", { ms: 1e17 }],
    ["advance {ms} past 9999", { ms: MAX_TIME_MS }],
    ["advance {ms: 1.5}", { ms: 1.5 }],
    ['advance {to: "+010000-01-15T00:00:00Z"}', { to: "+010000-01-15T00:00:00Z" }],
    ['advance {to: "+275760-09-13T00:00:00.001Z"} (past Date)', { to: "+275760-09-13T00:00:00.001Z" }],
  ] as const)
    it(`${what}: 400 invalid_value, the clock where it was`, async () => {
      const before = await now();
      const res = await api.post("/_emulator/clock/advance").send(body);
      const err = expectError(res, 400, "invalid_value");
      expect(err.message).toMatch(/ms|to/);
      expect(await now()).toBe(before);
      await stillWhole();
    });

  it("an advance to the last instant of 9999 is fine, and the export still imports", async () => {
    const res = await api.post("/_emulator/clock/advance").send({ to: "9999-12-31T23:59:59.999Z" }).expect(200);
    expect(res.body.data.now).toBe("9999-12-31T23:59:59.999Z");
    await stillWhole();
    const pools = (await api.get("/_emulator/credits/demo").expect(200)).body.data;
    expect(pools.free_credits_reset_at).toBe("9999-12-31T23:59:59.999Z");
    expectError(await api.post("/_emulator/clock/advance").send({ ms: 1 }), 400, "invalid_value");
  });
});

describe("other caller-supplied times and numbers", () => {
  let api: Api;
  useEmulator((ctx) => ({ api } = ctx));

  it("a fault's latency_ms past a day is a 400 invalid_value", async () => {
    const res = await api
      .post("/_emulator/faults")
      .send({ match: { path: "/api/v1/pokemon/cards/:id" }, status: 503, latency_ms: 1e300 });
    expectError(res, 400, "invalid_value");
    expect((await api.get("/_emulator/faults").expect(200)).body.data.faults).toEqual([]);
  });

  it("createEmulator refuses a startTime past 9999 in one line", async () => {
    await expect(createEmulator({ clock: "manual", startTime: "+010000-01-01T00:00:00Z" })).rejects.toThrow(
      /startTime .*9999/,
    );
  });
});
