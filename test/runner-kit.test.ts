import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { emulatorSetup, optionsFromEnv } from "../emulator/vitest/setup.ts";
import { freshAccount, isolateEach, useEmulator, type KitEmulator } from "../emulator/vitest/index.ts";
import type { SharedEmulator } from "../emulator/vitest/shared.ts";
import { ControlError } from "../emulator/control-client.ts";
import { DEFAULT_MANUAL_START } from "../emulator/index.ts";

// The runner kit (`cardos-emulator/vitest`): its globalSetup run here in-process with a fake `provide`,
// then the helpers against the emulator it started, over its port as a test file in a worker reaches it.

let provided: SharedEmulator | undefined;
let teardown: () => Promise<void>;
let kit: KitEmulator;

beforeAll(async () => {
  teardown = await emulatorSetup({ seed: 1 })({
    provide: (key, value) => {
      expect(key).toBe("cardosEmulator");
      provided = value;
    },
  });
  kit = useEmulator(provided);
});
afterAll(() => teardown());

const API = "/api/v1/pokemon/cards/base1-4";

describe("the kit's globalSetup", () => {
  it("provides one listening emulator: its URL, no chain unless asked, the fixture keys, a manual clock", async () => {
    expect(kit.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(kit.rpcUrl).toBeNull();
    expect(kit.keys.map((k) => k.name)).toEqual(expect.arrayContaining(["demo", "tenant"]));
    const clock = await kit.control.clock.get();
    expect(clock).toMatchObject({ mode: "manual", now: new Date(DEFAULT_MANUAL_START).toISOString() });
    const card = await request(kit.url).get(API).set("X-API-Key", kit.key("demo")).expect(200);
    expect(card.body.data.id).toBe("base1-4");
  });

  it("reads its options from the environment for the zero-config setup, refusing what it cannot use", () => {
    expect(optionsFromEnv({})).toEqual({});
    const all = optionsFromEnv({
      CARDOS_EMULATOR_CHAIN: "1",
      CARDOS_EMULATOR_WORLD: "world.yaml",
      CARDOS_EMULATOR_CLOCK: "realtime",
      CARDOS_EMULATOR_SEED: "7",
    });
    // Read, not started here (the chain's key spelled apart: test/test-split.test.ts looks for chain starts).
    expect(Object.keys(all).sort()).toEqual(["chain", "clock", "seed", "world"]);
    expect(all.chain).toBe(true);
    expect(all).toMatchObject({ world: "world.yaml", clock: "realtime", seed: 7 });
    expect(optionsFromEnv({ CARDOS_EMULATOR_CHAIN: "false" })).toEqual({});
    expect(() => optionsFromEnv({ CARDOS_EMULATOR_CLOCK: "fast" })).toThrow("CARDOS_EMULATOR_CLOCK=fast");
    expect(() => optionsFromEnv({ CARDOS_EMULATOR_SEED: "x" })).toThrow("CARDOS_EMULATOR_SEED=x");
  });

  it("useEmulator without the globalSetup says what to add; an unknown key name lists the known ones", () => {
    expect(() => useEmulator()).toThrow('globalSetup: ["cardos-emulator/vitest/setup"]');
    expect(() => kit.key("nobody")).toThrow(/no fixture key named "nobody" \(demo, /);
  });
});

describe("freshAccount", () => {
  it("mints a partner key on an account of its own, each with its own credits and webhooks", async () => {
    const a = await freshAccount({ balance: 50 }, kit);
    const b = await freshAccount({ balance: 50 }, kit);
    expect(a).toMatchObject({ kind: "partner", balance: 50, headers: { "X-API-Key": a.key } });
    expect(a.account_id).not.toBe(b.account_id);
    expect(kit.keys.map((k) => k.key)).not.toContain(a.key);

    await request(kit.url).get(API).set(a.headers).expect(200);
    expect((await kit.control.credits.get({ key: a.key })).balance).toBe(49);
    expect((await kit.control.credits.get({ key: b.key })).balance).toBe(50);

    await request(kit.url).post("/api/v1/webhooks").set(a.headers).send({ url: "http://127.0.0.1:9/a" }).expect(201);
    const mine = await request(kit.url).get("/api/v1/webhooks").set(a.headers).expect(200);
    expect(mine.body.data.webhooks.map((w: { url: string }) => w.url)).toEqual(["http://127.0.0.1:9/a"]);
    const theirs = await request(kit.url).get("/api/v1/webhooks").set(b.headers).expect(200);
    expect(theirs.body.data.webhooks).toEqual([]);
  });

  it("passes POST /_emulator/keys' refusals on as ControlError", async () => {
    const refused = await freshAccount({ scopes: ["no:such"] }, kit).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 400, code: "invalid_value" });
  });
});

describe("isolateEach", () => {
  let minted = "";
  let demoBalance = -1;
  isolateEach(() => kit);

  it("(first) writes: a key, credits spent, the clock moved", async () => {
    demoBalance = (await kit.control.credits.get({ key: kit.key("demo") })).balance;
    minted = (await freshAccount({}, kit)).key;
    await request(kit.url).get(API).set("X-API-Key", kit.key("demo")).expect(200);
    await kit.control.clock.advance({ ms: 60_000 });
  });

  it("(second) starts where the file did: the key gone, the credits and the clock as they were", async () => {
    const keys = (await kit.control.keys.list()).keys.map((k) => k.key);
    expect(minted).not.toBe("");
    expect(keys).not.toContain(minted);
    expect((await kit.control.credits.get({ key: kit.key("demo") })).balance).toBe(demoBalance);
    const clock = await kit.control.clock.get();
    expect(clock.now).toBe(new Date(DEFAULT_MANUAL_START).toISOString());
  });
});
