import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startEmulator, newKey, balance, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
beforeAll(async () => ({ emu, api, close } = await startEmulator({ seed: 7 })));
afterAll(() => close());

const CARD = "/api/v1/pokemon/cards/base1-4";

describe("/_emulator control plane", () => {
  it("GET /_emulator lists its routes; GET health summarises", async () => {
    const index = await api.get("/_emulator").expect(200);
    expect(index.body.data.routes.map((r: { path: string }) => r.path)).toContain("/_emulator/clock/advance");
    const h = await api.get("/_emulator/health").expect(200);
    expect(h.body.data).toMatchObject({ status: "ok", seed: 7, clock: { mode: "manual" } });
  });

  it("GET keys lists the fixture keys with kind, scopes and balances", async () => {
    const res = await api.get("/_emulator/keys").expect(200);
    const kinds = res.body.data.keys.map((k: { kind: string }) => k.kind);
    expect(kinds).toEqual(expect.arrayContaining(["partner", "tenant", "legacy"]));
    const demo = res.body.data.keys.find((k: { key: string }) => k.key === emu.key("demo"));
    expect(demo).toMatchObject({ kind: "partner", billing_model: "POOL", balance: 500 });
    expect(demo.scopes).toContain("read:catalog");
    expect(emu.key("demo")).toMatch(/^rip_v1_[A-Za-z0-9_-]{43}$/);
  });

  it("POST keys validates its body", async () => {
    expect((await api.post("/_emulator/keys").send({ kind: "robot" }).expect(400)).body.error).toBe("invalid_value");
    expect(
      expectError(await api.post("/_emulator/keys").send({ kind: "partner", scopes: ["root"] }), 400, "invalid_value")
        .message,
    ).toContain("root");
    expect(
      (await api.post("/_emulator/keys").send({ kind: "tenant", billing_model: "POOL" }).expect(400)).body.error,
    ).toBe("invalid_value");
    expectError(
      await api.post("/_emulator/keys").set("Content-Type", "application/json").send("{nope"),
      400,
      "invalid_json",
    );
    const res = await api
      .post("/_emulator/keys")
      .send({ kind: "partner", balance: 12, billing_model: "POOL", label: "mine" })
      .expect(201);
    expect(res.body.data).toMatchObject({ kind: "partner", billing_model: "POOL", label: "mine", balance: 12 });
  });

  it("snapshot and restore roll state back; reset returns to the fixtures", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    await api.get(CARD).set("X-API-Key", key).expect(200);
    const at = (await api.get("/_emulator/clock").expect(200)).body.data.now;
    const snap = await api.post("/_emulator/snapshot").expect(201);
    await api.get(CARD).set("X-API-Key", key).expect(200);
    await api.post("/_emulator/clock/advance").send({ ms: 3_600_000 }).expect(200);
    expect(await balance(api, key)).toBe(498);
    await api.post("/_emulator/restore").send({ id: snap.body.data.id }).expect(200);
    expect(await balance(api, key)).toBe(499);
    // The time goes back with the state: a snapshot is a moment, not only its records.
    expect((await api.get("/_emulator/clock").expect(200)).body.data.now).toBe(at);
    // a snapshot can be restored more than once
    await api.get(CARD).set("X-API-Key", key).expect(200);
    await api.post("/_emulator/restore").send({ id: snap.body.data.id }).expect(200);
    expect(await balance(api, key)).toBe(499);
    expect((await api.post("/_emulator/restore").send({ id: "snap_999" }).expect(404)).body.error).toBe("not_found");
    await api.post("/_emulator/reset").expect(200);
    expectError(await api.get(CARD).set("X-API-Key", key), 401, "API key not found or inactive");
    expect(await balance(api, emu.key("demo"))).toBe(500);
  });

  it("a restore or import starts the rate-limit windows afresh: a key minted again gets its whole ceiling", async () => {
    // Keys minted after a snapshot get the same values once it is restored (ids come from the restored
    // counters); their windows must not still hold the requests of the undone timeline.
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id;
    const exported = (await api.get("/_emulator/state").expect(200)).body.data;
    const first = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    for (let i = 0; i < 5; i++) await api.get(CARD).set("X-API-Key", first).expect(200);
    await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    const again = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    expect(again).toBe(first);
    const res = await api.get(CARD).set("X-API-Key", again).expect(200);
    expect(Number(res.headers["x-ratelimit-remaining"])).toBe(Number(res.headers["x-ratelimit-limit"]) - 1);
    for (let i = 0; i < 3; i++) await api.get(CARD).set("X-API-Key", again).expect(200);
    await api.put("/_emulator/state").send(exported).expect(200);
    const third = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    expect(third).toBe(first);
    const after = await api.get(CARD).set("X-API-Key", third).expect(200);
    expect(Number(after.headers["x-ratelimit-remaining"])).toBe(Number(after.headers["x-ratelimit-limit"]) - 1);
  });

  it("GET state exports and PUT state imports (rejecting junk and other seeds)", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"], balance: 42 });
    const exported = (await api.get("/_emulator/state").expect(200)).body.data;
    expect(exported).toMatchObject({ format: "cardos-emulator-state", version: 2 });
    await api.post("/_emulator/reset").expect(200);
    expectError(await api.get(CARD).set("X-API-Key", key), 401, "API key not found or inactive");
    await api.put("/_emulator/state").send(exported).expect(200);
    expect(await balance(api, key)).toBe(42);
    expect((await api.put("/_emulator/state").send({ hello: 1 }).expect(400)).body.error).toBe("invalid_state");
    const otherSeed = { ...exported, state: { ...exported.state, seed: 99 } };
    // Said for any caller (CLI or in-process), so as the export's values rather than a flag or an option name.
    expect(expectError(await api.put("/_emulator/state").send(otherSeed), 400, "invalid_state").message).toMatch(
      /made with seed 99 \/ catalog default; start an emulator with that seed and catalog to import it/,
    );
  });

  it("clock: read, advance by ms or to a time, switch mode; bad input is 400", async () => {
    const c0 = (await api.get("/_emulator/clock").expect(200)).body.data;
    expect(c0.mode).toBe("manual");
    const c1 = (await api.post("/_emulator/clock/advance").send({ ms: 90_000 }).expect(200)).body.data;
    expect(c1.now_ms - c0.now_ms).toBe(90_000);
    const target = new Date(c1.now_ms + 3600_000).toISOString();
    expect((await api.post("/_emulator/clock/advance").send({ to: target }).expect(200)).body.data.now).toBe(target);
    expectError(await api.post("/_emulator/clock/advance").send({ ms: -5 }), 400, "invalid_value");
    expectError(await api.post("/_emulator/clock/advance").send({ to: "2001-01-01T00:00:00Z" }), 400, "invalid_value");
    expectError(await api.post("/_emulator/clock/advance").send({}), 400, "invalid_value");
    expectError(await api.post("/_emulator/clock").send({ mode: "sideways" }), 400, "invalid_value");
    expect((await api.post("/_emulator/clock").send({ mode: "realtime" }).expect(200)).body.data.mode).toBe("realtime");
    await api.post("/_emulator/clock").send({ mode: "manual" }).expect(200);
  });

  it("faults: inject by path pattern and method, count with times, clear", async () => {
    const key = emu.key("demo");
    await api
      .post("/_emulator/faults")
      .send({ match: { method: "GET", path: "/api/v1/pokemon/cards/*" }, status: 503, error: "overloaded", times: 1 })
      .expect(201);
    const f = await api.get(CARD).set("X-API-Key", key).expect(503);
    expect(f.body).toMatchObject({ error: "overloaded", retryable: true });
    expect(f.headers["x-credits-cost"]).toBe("0");
    await api.get(CARD).set("X-API-Key", key).expect(200);
    await api
      .post("/_emulator/faults")
      .send({ match: { path: "/api/v1/**" }, status: 500, error: "internal_error" })
      .expect(201);
    expectError(await api.get(CARD).set("X-API-Key", key), 500, "internal_error");
    expect((await api.get("/_emulator/faults").expect(200)).body.data.faults).toHaveLength(2);
    await api.delete("/_emulator/faults").expect(200);
    await api.get(CARD).set("X-API-Key", key).expect(200);
    expectError(await api.post("/_emulator/faults").send({ match: {}, status: 500 }), 400, "invalid_value");
    expectError(
      await api.post("/_emulator/faults").send({ match: { path: "/x" }, status: 500, probability: 2 }),
      400,
      "invalid_value",
    );
  });

  it("faults with a probability replay the same pattern after a reset (deterministic from the seed)", async () => {
    const key = emu.key("demo");
    const pattern = async () => {
      await api
        .post("/_emulator/faults")
        .send({ match: { path: CARD }, status: 503, error: "overloaded", probability: 0.5 })
        .expect(201);
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await api.get(CARD).set("X-API-Key", key)).status);
      await api.post("/_emulator/reset").expect(200);
      return statuses;
    };
    const first = await pattern();
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await pattern()).toEqual(first);
  });

  it("unknown control routes are 404 in the same envelope", async () => {
    const res = await api.get("/_emulator/nothing").expect(404);
    expect(res.body).toMatchObject({ success: false, error: "not_found" });
  });
});
