import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { newKey, type Api, type Emulator, useEmulator, waitFor } from "../helpers.ts";
import { startReceiver, HANG, type Receiver } from "./receiver.ts";
import { verifySignature } from "./verify.ts";
import { publishEvent } from "../../emulator/events/publish.ts";
import { expectError } from "../../conformance/assert.ts";

// Delivery against a real HTTP receiver on 127.0.0.1: the wire format and
// signature (checked with an independent HMAC), the retry schedule on the
// virtual clock, filters, inactive webhooks, the delivery log and the outbox.

let emu: Emulator;
let api: Api;
let rx: Receiver;
useEmulator((ctx) => ({ emu, api } = ctx));
beforeEach(async () => {
  await emu.reset(); // also proves reset drops every pending delivery timer
  rx = await startReceiver();
});
afterEach(() => rx.close());

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

async function register(key: string, body: Record<string, unknown> = {}) {
  const res = await api
    .post("/api/v1/webhooks")
    .set("X-API-Key", key)
    .send({ url: rx.url, ...body })
    .expect(201);
  return res.body.data as { id: number; signing_secret: string };
}

async function trigger(key: string, type: string, extra: Record<string, unknown> = {}) {
  const res = await api
    .post("/_emulator/events")
    .send({ type, key, ...extra })
    .expect(201);
  return res.body.data as {
    event: { event: string; id: string; data: Record<string, unknown> };
    deliveries: Array<Record<string, unknown>>;
  };
}

/** The virtual-clock times of the attempts of an event (the outbox's `at`); the headers carry wall time. */
const attemptTimes = async (eventId: string) =>
  (
    (await api.get(`/_emulator/webhooks/outbox?event_id=${encodeURIComponent(eventId)}`).expect(200)).body.data
      .attempts as { at: string }[]
  ).map((a) => Date.parse(a.at));

const deliveries = async (key: string, query = "") =>
  (await api.get(`/api/v1/webhooks/deliveries${query}`).set("X-API-Key", key).expect(200)).body;

describe("a delivery on the wire", () => {
  it("POSTs {event,id,data} with the X-Mystery-* headers and a signature an independent HMAC accepts", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    const wallBefore = Date.now();
    const { event, deliveries: created } = await trigger(key, "purchase.fulfilled", { data: { purchase_id: 4242 } });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ status: "DELIVERED", attempts: 1, last_status_code: 200, webhook_id: hook.id });

    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/hooks");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toMatch(/CardOS-Webhooks/);
    expect(got.headers["x-mystery-event"]).toBe("purchase.fulfilled");
    expect(got.headers["x-mystery-delivery"]).toBe(event.id);
    expect(event.id).toMatch(/^purchase\.fulfilled:/);
    // Stamped with the wall-clock time of the attempt, which receivers compare with their own clock.
    const now = Number(got.headers["x-mystery-timestamp"]);
    expect(got.headers["x-mystery-timestamp"]).toMatch(/^\d{13}$/);
    expect(now).toBeGreaterThanOrEqual(wallBefore);
    expect(now).toBeLessThanOrEqual(Date.now());
    const body = JSON.parse(got.body);
    expect(Object.keys(body)).toEqual(["event", "id", "data"]);
    expect(body).toMatchObject({
      event: "purchase.fulfilled",
      id: event.id,
      data: { purchase_id: 4242, status: "FULFILLED" },
    });

    const v = verifySignature(hook.signing_secret, got.headers["x-mystery-signature"] as string, got.body);
    expect(v).toEqual({ ok: true, t: now });
    // A tampered body or another secret does not verify.
    expect(
      verifySignature(
        hook.signing_secret,
        got.headers["x-mystery-signature"] as string,
        got.body.replace("4242", "4243"),
      ).ok,
    ).toBe(false);
    expect(verifySignature("0".repeat(64), got.headers["x-mystery-signature"] as string, got.body).ok).toBe(false);
  });

  it("events published by other areas through the bus are delivered too (first attempt without an advance)", async () => {
    const key = await newKey(api, { kind: "partner" });
    await register(key);
    const account = emu.services.store.state.keys[key].account_id;
    // A whole redemption.updated payload: the publisher holds every event to its contract (its table's schema).
    const data = {
      redemption_id: 77,
      purchase_id: null,
      token_id: "77",
      item_type: "card",
      status: "COMPLETED",
      burn_tx_hash: null,
      failure_reason: null,
    };
    publishEvent(emu.services, account, "redemption.updated", "r-77:COMPLETED", data);
    await emu.clock.advance(0); // waits for the attempt already started
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0].body)).toEqual({
      event: "redemption.updated",
      id: "redemption.updated:r-77:COMPLETED",
      data,
    });
    // Same occurrence again: not a second delivery.
    publishEvent(emu.services, account, "redemption.updated", "r-77:COMPLETED", data);
    await emu.clock.advance(0);
    expect(rx.received).toHaveLength(1);
  });
});

describe("retries on the virtual clock", () => {
  it("a receiver answering 500 sees exactly 6 attempts at 0, +30 s, +2 min, +10 min, +1 h, +6 h, then FAILED", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    rx.script([], 500);
    const t0 = emu.clock.now();
    const { event } = await trigger(key, "buyback.confirmed");
    expect(rx.received).toHaveLength(1);

    // Retries wait on the virtual clock only: a wall-clock sleep would hang here (30 s, then hours).
    await emu.clock.advance(30 * SECOND - 1);
    expect(rx.received).toHaveLength(1); // not a millisecond early
    await emu.clock.advance(1);
    expect(rx.received).toHaveLength(2);
    await emu.clock.advance(24 * HOUR);

    const stamps = (await attemptTimes(event.id)).map((at) => at - t0);
    expect(stamps).toEqual([0, 30 * SECOND, 150 * SECOND, 750 * SECOND, 750 * SECOND + HOUR, 750 * SECOND + 7 * HOUR]);
    for (const r of rx.received) {
      expect(r.headers["x-mystery-delivery"]).toBe(event.id); // stable across retries
      expect(verifySignature(hook.signing_secret, r.headers["x-mystery-signature"] as string, r.body)).toEqual({
        ok: true,
        t: Number(r.headers["x-mystery-timestamp"]),
      });
    }
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1); // same bytes every time

    const [row] = (await deliveries(key)).data.deliveries;
    expect(row).toEqual({
      id: expect.any(Number),
      webhook_id: hook.id,
      event_type: "buyback.confirmed",
      event_id: event.id,
      status: "FAILED",
      attempts: 6,
      last_status_code: 500,
      last_error: "HTTP 500",
      next_retry_at: null,
      delivered_at: null,
      created_at: new Date(t0).toISOString(),
    });
    await emu.clock.advance(48 * HOUR);
    expect(rx.received).toHaveLength(6);
  });

  it("fails twice, then succeeds: DELIVERED after the third attempt, next_retry_at tracks the schedule", async () => {
    const key = await newKey(api, { kind: "partner" });
    await register(key);
    rx.script([503, 404], 204);
    const t0 = emu.clock.now();
    const {
      deliveries: [first],
    } = await trigger(key, "deposit.credited");
    expect(first).toMatchObject({
      status: "PENDING",
      attempts: 1,
      last_status_code: 503,
      next_retry_at: new Date(t0 + 30 * SECOND).toISOString(),
    });
    await emu.clock.advance(30 * SECOND);
    let [row] = (await deliveries(key)).data.deliveries;
    expect(row).toMatchObject({
      status: "PENDING",
      attempts: 2,
      last_status_code: 404,
      next_retry_at: new Date(t0 + 150 * SECOND).toISOString(),
    });
    await emu.clock.advance(2 * MINUTE);
    [row] = (await deliveries(key)).data.deliveries;
    expect(row).toMatchObject({
      status: "DELIVERED",
      attempts: 3,
      last_status_code: 204,
      last_error: null,
      next_retry_at: null,
      delivered_at: new Date(t0 + 150 * SECOND).toISOString(),
    });
    await emu.clock.advance(24 * HOUR);
    expect(rx.received).toHaveLength(3);
  });

  it("3xx is not success, and an unreachable receiver is retried with the connection error recorded", async () => {
    const key = await newKey(api, { kind: "partner" });
    rx.script([302], 200);
    await register(key);
    const {
      deliveries: [a],
    } = await trigger(key, "purchase.reserved");
    expect(a).toMatchObject({ status: "PENDING", last_status_code: 302, last_error: "HTTP 302" });

    const key2 = await newKey(api, { kind: "partner" });
    const dead = await startReceiver();
    const url = dead.url;
    await dead.close();
    await api.post("/api/v1/webhooks").set("X-API-Key", key2).send({ url }).expect(201);
    const {
      deliveries: [b],
    } = await trigger(key2, "purchase.reserved");
    expect(b).toMatchObject({
      status: "PENDING",
      attempts: 1,
      last_status_code: null,
      last_error: expect.stringMatching(/^connection failed/),
    });
  });

  it("a receiver that never answers fails the attempt when the emulator's clock passes its deadline", async () => {
    const key = await newKey(api, { kind: "partner" });
    await register(key);
    // The largest timeout: its wall-clock bound cannot end the attempt within the test, only the clock can.
    await api.put("/_emulator/webhooks/settings").send({ attempt_timeout_ms: 120_000 }).expect(200);
    rx.script([], HANG);
    const t0 = emu.clock.now();
    await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key, wait: false }).expect(201);
    await waitFor(() => rx.received.length === 1, "the first attempt to reach the receiver");
    // Short of the deadline the attempt stays open: that advance reaches t0 + 119 s and waits for its answer.
    const short = emu.clock.advance(119 * SECOND);
    await waitFor(() => emu.clock.now() === t0 + 119 * SECOND, "the clock to reach 119 s");
    expect((await deliveries(key)).data.deliveries[0]).toMatchObject({ status: "PENDING", attempts: 0 });
    // The next second reaches the deadline: the attempt ends there, and both advances resolve.
    await Promise.all([short, emu.clock.advance(1 * SECOND)]);
    const [d] = (await deliveries(key)).data.deliveries;
    expect(d).toMatchObject({
      status: "PENDING",
      attempts: 1,
      last_status_code: null,
      last_error: "timeout: no answer within 120000 ms",
      // Stamped at the deadline on the clock: the retry is 30 s after it.
      next_retry_at: new Date(t0 + 150 * SECOND).toISOString(),
    });
    // Ended by the clock, not by the wall-clock bound (which would have taken the full 120 s).
    const [attempt] = (await api.get("/_emulator/webhooks/outbox").expect(200)).body.data.attempts;
    expect(attempt.duration_ms).toBeLessThan(120_000);
    expect(emu.clock.pending().filter((t) => t.label.includes("deadline"))).toEqual([]);
    rx.script([], 200);
    await emu.clock.advance(30 * SECOND);
    expect((await deliveries(key)).data.deliveries[0]).toMatchObject({ status: "DELIVERED", attempts: 2 });
    expectError(await api.put("/_emulator/webhooks/settings").send({ attempt_timeout_ms: 0 }), 400, "invalid_value");
  });

  it("on a clock that does not move, the same span of wall time ends the attempt", async () => {
    const key = await newKey(api, { kind: "partner" });
    await register(key);
    await api.put("/_emulator/webhooks/settings").send({ attempt_timeout_ms: 50 }).expect(200);
    // Every request hangs until the first attempt has timed out. Not "the first request": on a loaded machine the
    // 50 ms ran out before that request reached the receiver, the retry came first and was the one that hung.
    rx.script([], HANG);
    const t0 = emu.clock.now();
    const {
      deliveries: [d],
    } = await trigger(key, "purchase.fulfilled");
    // The manual clock never moved: the wall-clock bound ended it, so a delivery cannot hang forever.
    expect(emu.clock.now()).toBe(t0);
    expect(d).toMatchObject({
      status: "PENDING",
      attempts: 1,
      last_status_code: null,
      last_error: "timeout: no answer within 50 ms",
      next_retry_at: new Date(t0 + 30 * SECOND).toISOString(),
    });
    // 50 ms only bounds the hanging attempt; the retry that must succeed gets the largest bound, so a loaded
    // machine answering slowly cannot time it out.
    await api.put("/_emulator/webhooks/settings").send({ attempt_timeout_ms: 120_000 }).expect(200);
    rx.script([], 200);
    await emu.clock.advance(30 * SECOND);
    expect((await deliveries(key)).data.deliveries[0]).toMatchObject({ status: "DELIVERED", attempts: 2 });
  });

  it("POST /_emulator/webhooks/retry runs due deliveries, or every pending one with {all:true}", async () => {
    const key = await newKey(api, { kind: "partner" });
    await register(key);
    rx.script([500], 200);
    await trigger(key, "sellback.confirmed");
    const none = await api.post("/_emulator/webhooks/retry").send({}).expect(200);
    expect(none.body.data.retried).toBe(0); // the next attempt is 30 s away
    const all = await api.post("/_emulator/webhooks/retry").send({ all: true }).expect(200);
    expect(all.body.data).toMatchObject({ retried: 1, deliveries: [{ status: "DELIVERED", attempts: 2 }] });
    expect(rx.received).toHaveLength(2);
    await emu.clock.advance(HOUR);
    expect(rx.received).toHaveLength(2); // the cancelled timer does not fire
    expectError(await api.post("/_emulator/webhooks/retry").send({ delivery_id: 999999 }), 404, "not_found");
  });
});

describe("who receives what", () => {
  it("event_types filters; empty means every event; inactive webhooks get nothing", async () => {
    const key = await newKey(api, { kind: "partner" });
    const only = await register(key, { event_types: ["purchase.fulfilled"] });
    const every = await register(key, { event_types: [] });
    const off = await register(key, { is_active: false });
    const { deliveries: d1 } = await trigger(key, "purchase.fulfilled");
    expect(d1.map((d) => d.webhook_id).sort()).toEqual([only.id, every.id].sort());
    const { deliveries: d2 } = await trigger(key, "payout.paid");
    expect(d2.map((d) => d.webhook_id)).toEqual([every.id]);
    await api.patch(`/api/v1/webhooks/${every.id}`).set("X-API-Key", key).send({ is_active: false }).expect(200);
    const { deliveries: d3 } = await trigger(key, "payout.paid");
    expect(d3).toEqual([]);
    expect(rx.received).toHaveLength(3);
    expect([...d1, ...d2].some((d) => d.webhook_id === off.id)).toBe(false);
  });

  it("every key of the account receives the account's events; other accounts do not", async () => {
    const a1 = await newKey(api, { kind: "partner", account_id: "shared-acct" });
    const a2 = await newKey(api, { kind: "partner", account_id: "shared-acct" });
    const outsider = await newKey(api, { kind: "partner" });
    const h1 = await register(a1);
    const h2 = await register(a2);
    await register(outsider);
    const { deliveries: d } = await trigger(a1, "pool.item_pulled");
    expect(d.map((x) => x.webhook_id).sort()).toEqual([h1.id, h2.id].sort());
    // Each key's log shows only its own webhooks' deliveries.
    expect((await deliveries(a2)).data.deliveries.map((x: { webhook_id: number }) => x.webhook_id)).toEqual([h2.id]);
    expect((await deliveries(outsider)).data.deliveries).toEqual([]);
  });

  it("tenants receive warehouse events published for their account", async () => {
    const tenant = await newKey(api, { kind: "tenant", account_id: "tenant-acct" });
    await register(tenant, { event_types: ["order.returned", "card.returned"] });
    const { event } = await trigger(tenant, "order.returned", { event_key: "880001:RETURNED" });
    expect(event.id).toBe("order.returned:880001:RETURNED");
    expect(JSON.parse(rx.received[0].body).data).toMatchObject({
      status: "RETURNED",
      unique_ids: [expect.stringMatching(/^CARD-/)],
    });
  });

  it("a changed url takes effect on the next retry", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    rx.script([500], 200);
    await trigger(key, "purchase.failed");
    const rx2 = await startReceiver();
    try {
      await api.patch(`/api/v1/webhooks/${hook.id}`).set("X-API-Key", key).send({ url: rx2.url }).expect(200);
      await emu.clock.advance(30 * SECOND);
      expect(rx.received).toHaveLength(1);
      expect(rx2.received).toHaveLength(1);
    } finally {
      await rx2.close();
    }
  });

  it("deleting a webhook drops its pending deliveries (no more attempts)", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    rx.script([], 500);
    await trigger(key, "purchase.refunded");
    await api.delete(`/api/v1/webhooks/${hook.id}`).set("X-API-Key", key).expect(200);
    await emu.clock.advance(24 * HOUR);
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(key)).data.deliveries).toEqual([]);
    expect(emu.clock.pending().filter((t) => t.label.startsWith("webhook"))).toEqual([]);
  });

  it("deactivating a webhook stops its retries: the pending delivery becomes FAILED", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    rx.script([500], 200);
    await trigger(key, "purchase.submitted");
    await api.patch(`/api/v1/webhooks/${hook.id}`).set("X-API-Key", key).send({ is_active: false }).expect(200);
    await emu.clock.advance(HOUR);
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(key)).data.deliveries[0]).toMatchObject({
      status: "FAILED",
      attempts: 1,
      last_error: "webhook is inactive",
    });
  });
});

describe("the delivery log", () => {
  it("is empty before any delivery, newest first, offset-paged with {limit, offset, has_more}", async () => {
    const key = await newKey(api, { kind: "partner" });
    const empty = await deliveries(key);
    expect(empty).toEqual({
      success: true,
      data: { deliveries: [] },
      pagination: { limit: 50, offset: 0, has_more: false },
    });
    await register(key);
    const ids: string[] = [];
    for (const type of ["purchase.reserved", "purchase.submitted", "purchase.fulfilled"])
      ids.push((await trigger(key, type)).event.id);
    const page1 = await deliveries(key, "?limit=2");
    expect(page1.data.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([ids[2], ids[1]]);
    expect(page1.pagination).toEqual({ limit: 2, offset: 0, has_more: true });
    const page2 = await deliveries(key, "?limit=2&offset=2");
    expect(page2.data.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([ids[0]]);
    expect(page2.pagination).toEqual({ limit: 2, offset: 2, has_more: false });
    expect((await deliveries(key, "?limit=500")).pagination.limit).toBe(100);
    const bad = await api.get("/api/v1/webhooks/deliveries?limit=abc").set("X-API-Key", key).expect(400);
    expect(bad.body.error).toBe("invalid_pagination");
  });
});

describe("the outbox (control plane)", () => {
  it("shows every attempt with url, request headers and body, and the receiver's answer", async () => {
    const key = await newKey(api, { kind: "partner" });
    const hook = await register(key);
    rx.script([500], 200);
    const { event } = await trigger(key, "instant_purchase.fulfilled");
    await emu.clock.advance(30 * SECOND);
    const res = await api.get(`/_emulator/webhooks/outbox?event_id=${encodeURIComponent(event.id)}`).expect(200);
    const attempts = res.body.data.attempts;
    expect(attempts.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome])).toEqual([
      [1, "failed"],
      [2, "delivered"],
    ]);
    expect(attempts[0]).toMatchObject({
      webhook_id: hook.id,
      url: rx.url,
      request: { method: "POST", headers: { "X-Mystery-Delivery": event.id }, body: rx.received[0].body },
      response: { status: 500, body: "receiver says no" },
      error: "HTTP 500",
    });
    expect(attempts[1].at).toBe(new Date(Date.parse(attempts[0].at) + 30 * SECOND).toISOString());
    const ops = await api.get("/_emulator/webhooks").expect(200);
    expect(ops.body.data.webhooks.find((w: { id: number }) => w.id === hook.id)).toMatchObject({
      signing_secret: hook.signing_secret,
      owner_key: key,
    });
  });

  it("POST /_emulator/events validates its input", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "invalid_value"],
      [{ type: "nope.nope" }, "invalid_event_types"],
      [{ type: "card.added" }, "invalid_event_types"],
      [{ type: "payout.paid", data: [1] }, "invalid_value"],
      [{ type: "payout.paid", key: "k", account_id: "a" }, "invalid_value"],
    ];
    for (const [body, code] of cases)
      expectError(await api.post("/_emulator/events").send(body), 400, code, JSON.stringify(body));
    expectError(
      await api.post("/_emulator/events").send({ type: "payout.paid", key: "rip_v1_unknown" }),
      404,
      "not_found",
    );
  });
});

it("manual clock: an event published by a timer is attempted within the same advance", async () => {
  const key = await newKey(api, { kind: "partner" });
  await register(key);
  const account = emu.services.store.state.keys[key].account_id;
  const at = emu.clock.now() + 5 * MINUTE;
  emu.clock.after(5 * MINUTE, () =>
    publishEvent(emu.services, account, "order.tracking_updated", "o-1:1", {
      order_id: 1,
      status: "SHIPPED",
      carrier: "usps",
      tracking_number: "9400100000000000000001",
      tracking_status: "in_transit",
      unique_ids: [],
      updated_at: emu.clock.nowIso(),
    }),
  );
  await emu.clock.advance(5 * MINUTE); // the advance that published also runs the first attempt
  expect(rx.received).toHaveLength(1);
  expect(await attemptTimes("order.tracking_updated:o-1:1")).toEqual([at]);
});
