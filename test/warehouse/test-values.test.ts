import { describe, expect, it } from "vitest";
import { startEmulator, useEmulator, type Api, type Emulator } from "../helpers.ts";
import { US_ADDRESS, shippable } from "./helpers.ts";

// The warehouse's emulator-only test values (docs/test-values.md), reached through the tenant API alone:
// a street line that makes the label purchase fail, and one the carrier brings back.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

/** Quote one card to `street1`, commit the first rate, let the label purchase run; the order as read back. */
async function orderTo(e: Emulator, a: Api, street1: string) {
  const key = e.key("tenant");
  const [id] = await shippable(a, key, 1);
  const q = await a
    .post("/api/v1/shipping-quote")
    .set("X-API-Key", key)
    .send({ unique_ids: [id], address: { ...US_ADDRESS, street1 } })
    .expect(200);
  await a
    .post("/api/v1/orders")
    .set("X-API-Key", key)
    .send({ order_id: q.body.data.order_id, rate_id: q.body.data.rates[0].rate_id })
    .expect(202);
  await e.clock.advance(3_000);
  return (await a.get(`/api/v1/orders/${q.body.data.order_id}`).set("X-API-Key", key).expect(200)).body.data;
}

describe("warehouse test values", () => {
  it('street1 "FAIL LABEL": the label purchase fails and the order is back in PENDING_PAYMENT', async () => {
    const o = await orderTo(emu, api, "FAIL LABEL");
    expect(o.status).toBe("PENDING_PAYMENT");
    expect(o.last_error).toMatchObject({ code: "label_purchase_failed" });
  });

  it('street1 "RETURN TO SENDER": the label is bought, then the carrier returns the package', async () => {
    const o = await orderTo(emu, api, "Return To Sender");
    expect(o.status).toBe("RETURNED");
    expect(o.tracking_status).toBe("returned_to_sender");
  });

  it("testValues: false (--no-test-values): the same address is an ordinary one", async () => {
    const off = await startEmulator({ testValues: false });
    try {
      const o = await orderTo(off.emu, off.api, "FAIL LABEL");
      expect(o.status).toBe("LABEL_PURCHASED");
    } finally {
      await off.close();
    }
  });
});
