import { describe, it, expect, afterEach } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import type { ClockMode } from "../../emulator/clock/clock.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { verifyLikeSdk } from "./verify.ts";

// A receiver verifies with the SDK's defaults (5-minute tolerance against its own wall clock), so
// deliveries are signed with the wall-clock time of the attempt, whatever the virtual clock says:
// after a jump of an hour or a month, first attempts and retries verify alike.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let emu: Emulator | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  await emu?.close();
  emu = rx = undefined;
});

async function setup(clock: ClockMode) {
  emu = await createEmulator({ seed: 1, clock, port: 0 });
  rx = await startReceiver();
  const api = request(emu.url);
  const key = emu.key("demo");
  const hook = (await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201)).body
    .data as { signing_secret: string };
  return { emu, rx, api, key, secret: hook.signing_secret };
}

describe.each<ClockMode>(["manual", "realtime"])("signatures after a clock jump (%s clock)", (mode) => {
  it.each([
    ["1 hour", HOUR],
    ["30 days", 30 * DAY],
  ])("after advancing %s, first attempts and retries verify with the SDK's default tolerance", async (_label, jump) => {
    const { emu, rx, api, key, secret } = await setup(mode);
    await emu.clock.advance(jump);
    rx.script([500], 200); // the first attempt fails; the retry 30 s later succeeds
    const before = Date.now();
    const fired = (await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201)).body.data;
    await emu.clock.advance(30_000);
    expect(rx.received).toHaveLength(2);
    for (const got of rx.received) {
      expect(
        verifyLikeSdk({ payload: got.body, signature: got.headers["x-mystery-signature"] as string, secret }),
      ).toBe(true);
      const t = Number(got.headers["x-mystery-timestamp"]);
      expect(t).toBeGreaterThanOrEqual(before);
      expect(t).toBeLessThanOrEqual(Date.now());
      expect(got.headers["x-mystery-signature"]).toMatch(new RegExp(`^t=${t},sha256=`));
    }
    // The event and the delivery records stay on the virtual clock.
    const [attempt1, attempt2] = (
      await api.get(`/_emulator/webhooks/outbox?event_id=${encodeURIComponent(fired.event.id)}`).expect(200)
    ).body.data.attempts;
    const slack = mode === "manual" ? 0 : 5_000; // a realtime clock moves on while the test runs
    const gap = Date.parse(attempt2.at) - Date.parse(attempt1.at);
    expect(gap).toBeGreaterThanOrEqual(30_000);
    expect(gap).toBeLessThanOrEqual(30_000 + slack);
    expect(Math.abs(Date.parse(attempt1.at) - (emu.clock.now() - 30_000))).toBeLessThanOrEqual(slack);
    const log = (await api.get("/api/v1/webhooks/deliveries").set("X-API-Key", key).expect(200)).body.data.deliveries;
    expect(log.find((d: { event_id: string }) => d.event_id === fired.event.id)).toMatchObject({
      status: "DELIVERED",
      attempts: 2,
    });
  });
});
