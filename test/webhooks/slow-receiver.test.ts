import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { newKey, type Api, type Emulator, useEmulator, waitFor } from "../helpers.ts";

// A receiver that keeps an attempt waiting must not hold up the emulator's other timers: the clock goes on
// without it and waits for it only before time would pass its delivery's first retry (docs/webhooks.md).

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

/** Accepts every request and answers none until `release()`. */
async function stallingReceiver() {
  const waiting: ServerResponse[] = [];
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      waiting.push(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => received,
    release: () => waiting.splice(0).forEach((res) => res.writeHead(200).end("ok")),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

let rx: Awaited<ReturnType<typeof stallingReceiver>>;
beforeEach(async () => {
  await emu.reset();
  rx = await stallingReceiver();
  // The longest timeout there is: only the receiver's answer can end the attempt within the test.
  await api.put("/_emulator/webhooks/settings").send({ attempt_timeout_ms: 120_000 }).expect(200);
});
afterEach(() => rx.close());

const delivery = async (key: string) =>
  (await api.get("/api/v1/webhooks/deliveries").set("X-API-Key", key).expect(200)).body.data.deliveries[0];

describe("a receiver that does not answer", () => {
  it("does not stall other timers: they fire while the attempt waits, and it is recorded when the answer comes", async () => {
    const key = await newKey(api, { kind: "partner" });
    await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
    const start = emu.clock.now();
    await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key, wait: false }).expect(201);
    await waitFor(() => rx.received() === 1, "the first attempt to reach the receiver");

    const fired: number[] = [];
    emu.clock.after(1_000, () => void fired.push(emu.clock.now()), "another timer");
    emu.clock.after(20_000, () => void fired.push(emu.clock.now()), "a later timer");
    // Before: the clock waited for the attempt (up to its 120 s timeout) before anything else could fire.
    let advanced = false;
    const advance = emu.clock.advance(25_000).then(() => (advanced = true));
    await waitFor(() => fired.length === 2, "the other timers to fire while the receiver holds the attempt", 10_000);
    expect(fired).toEqual([start + 1_000, start + 20_000]);
    expect(emu.clock.now()).toBe(start + 25_000);
    expect(await delivery(key)).toMatchObject({ status: "PENDING", attempts: 0 });
    // The advance itself resolves once the attempt has its answer.
    expect(advanced).toBe(false);

    rx.release();
    await advance;
    expect(await delivery(key)).toMatchObject({ status: "DELIVERED", attempts: 1, last_status_code: 200 });
    expect(rx.received()).toBe(1);
  });

  it("time does not pass the attempt's deadline while the attempt is open: the retry schedule stays in order", async () => {
    const key = await newKey(api, { kind: "partner" });
    await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
    const start = emu.clock.now();
    await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key, wait: false }).expect(201);
    await waitFor(() => rx.received() === 1, "the first attempt");
    // One advance over the deadline (120 s on the clock) and the first retry (30 s after it): the first attempt
    // ends at its deadline, then the retry is made; the advance resolves once the retry has its answer.
    const advance = emu.clock.advance(151_000);
    await waitFor(() => rx.received() === 2, "the retry");
    rx.release();
    await advance;
    const attempts = (await api.get("/_emulator/webhooks/outbox").expect(200)).body.data.attempts as Array<{
      at: string;
      error: string | null;
    }>;
    const inOrder = attempts.toSorted((a, b) => Date.parse(a.at) - Date.parse(b.at));
    expect(inOrder.map((a) => Date.parse(a.at))).toEqual([start, start + 150_000]);
    expect(inOrder.map((a) => a.error)).toEqual(["timeout: no answer within 120000 ms", null]);
    expect(await delivery(key)).toMatchObject({ status: "DELIVERED", attempts: 2 });
  });
});
