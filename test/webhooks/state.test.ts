import { describe, it, expect, beforeEach, afterEach } from "vitest";
import request from "supertest";
import { newKey, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { createEmulator } from "../../emulator/index.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { publishEvent } from "../../emulator/events/publish.ts";
import { dispatcherFor } from "../../emulator/areas/webhooks/dispatcher.ts";

// Delivery state lives in the store; timers follow it through reset,
// snapshot/restore and export/import, and realtime mode needs no advance.

let emu: Emulator;
let api: Api;
let rx: Receiver;
useEmulator((ctx) => ({ emu, api } = ctx));
beforeEach(async () => {
  await emu.reset();
  rx = await startReceiver(500);
});
afterEach(() => rx.close());

const SECOND = 1000;
const HOUR = 3_600_000;
const webhookTimers = (e: Emulator) => e.clock.pending().filter((t) => t.label.startsWith("webhook delivery"));

async function failingDelivery() {
  const key = await newKey(api, { kind: "partner" });
  await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
  await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201);
  return key;
}

const log = async (key: string) =>
  (await api.get("/api/v1/webhooks/deliveries").set("X-API-Key", key).expect(200)).body.data.deliveries;

describe("reset, snapshot and restore", () => {
  it("reset drops webhooks, deliveries and their timers", async () => {
    await failingDelivery();
    expect(webhookTimers(emu)).toHaveLength(1);
    await api.post("/_emulator/reset").expect(200);
    expect(webhookTimers(emu)).toEqual([]);
    await emu.clock.advance(24 * HOUR);
    expect(rx.received).toHaveLength(1);
    expect((await api.get("/_emulator/webhooks/outbox")).body.data.attempts).toEqual([]);
  });

  it("restore brings back a pending delivery, and the time, and re-arms it at its next_retry_at", async () => {
    const key = await failingDelivery();
    const t0 = emu.clock.now() - 0;
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id;
    await emu.clock.advance(24 * HOUR);
    expect(rx.received).toHaveLength(6);
    expect((await log(key))[0]).toMatchObject({ status: "FAILED", attempts: 6 });

    await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    const [row] = await log(key);
    expect(row).toMatchObject({
      status: "PENDING",
      attempts: 1,
      next_retry_at: new Date(t0 + 30 * SECOND).toISOString(),
    });
    // The time went back with the state: the retry is due 30 s after the first attempt, as it was.
    expect(emu.clock.now()).toBe(t0);
    expect(webhookTimers(emu)).toHaveLength(1);
    rx.script([], 200);
    await emu.clock.advance(30 * SECOND - 1);
    expect(rx.received).toHaveLength(6);
    await emu.clock.advance(1);
    expect(rx.received).toHaveLength(7);
    expect((await log(key))[0]).toMatchObject({ status: "DELIVERED", attempts: 2 });
    expect(webhookTimers(emu)).toEqual([]);
  });

  it("restoring a state with no pending deliveries cancels the live timers", async () => {
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id;
    await failingDelivery();
    expect(webhookTimers(emu)).toHaveLength(1);
    await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    expect(webhookTimers(emu)).toEqual([]);
    await emu.clock.advance(24 * HOUR);
    expect(rx.received).toHaveLength(1);
  });

  it("a state export carries pending deliveries into another emulator, which resumes them", async () => {
    const key = await failingDelivery();
    const exported = emu.exportState();
    const other = await createEmulator({ seed: 1, clock: "manual", state: exported, port: 0 });
    try {
      expect(webhookTimers(other)).toHaveLength(1);
      rx.script([], 200);
      await other.clock.advance(30 * SECOND);
      expect(rx.received).toHaveLength(2);
      const res = await request(other.url).get("/api/v1/webhooks/deliveries").set("x-api-key", key);
      expect((res.body as { data: { deliveries: unknown[] } }).data.deliveries[0]).toMatchObject({
        status: "DELIVERED",
        attempts: 2,
      });
    } finally {
      await other.close();
    }
  });
});

describe("realtime clock", () => {
  it("the first attempt runs at once, without any advance", async () => {
    const live = await createEmulator({ seed: 1, clock: "realtime", port: 0 });
    try {
      rx.script([], 200);
      const key = live.key("demo");
      const reg = await request(live.url).post("/api/v1/webhooks").set("x-api-key", key).send({ url: rx.url });
      expect(reg.status).toBe(201);
      publishEvent(live.services, "acme", "purchase.fulfilled", "rt-1", { purchase_id: 1, status: "FULFILLED" });
      await dispatcherFor(live.services).idle(); // the attempt started at once; wait for it without a wall-clock sleep
      expect(rx.received).toHaveLength(1);
      const log = await request(live.url).get("/api/v1/webhooks/deliveries").set("x-api-key", key);
      expect((log.body as { data: { deliveries: unknown[] } }).data.deliveries[0]).toMatchObject({
        status: "DELIVERED",
        attempts: 1,
      });
    } finally {
      await live.close();
    }
  });

  it("an advance runs the whole retry schedule in realtime mode too", async () => {
    const live = await createEmulator({ seed: 1, clock: "realtime", port: 0 });
    try {
      const key = live.key("demo");
      await request(live.url).post("/api/v1/webhooks").set("x-api-key", key).send({ url: rx.url }).expect(201);
      const ev = await request(live.url).post("/_emulator/events").send({ type: "payout.paid", key });
      expect(ev.status).toBe(201);
      expect(rx.received).toHaveLength(1); // POST /_emulator/events answers after the first attempt
      await live.clock.advance(8 * HOUR);
      expect(rx.received).toHaveLength(6);
    } finally {
      await live.close();
    }
  });
});
