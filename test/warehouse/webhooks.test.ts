import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { startReceiver, type Receiver } from "../webhooks/receiver.ts";
import { placeOrder, shippable } from "./helpers.ts";

// The warehouse events reach a tenant's registered webhook over the wire.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let rx: Receiver;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator());
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await close();
});

describe("warehouse webhooks", () => {
  it("a tenant webhook receives the order's tracking events, order.returned and card.returned", async () => {
    const tenant = emu.key("tenant");
    await api.post("/api/v1/webhooks").set("X-API-Key", tenant).send({ url: rx.url, event_types: [] }).expect(201);
    const [id] = await shippable(api, tenant);
    const o = await placeOrder(emu, api, tenant, [id]);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/ship`).expect(200);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/return`).expect(200);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/scan-back`).send({}).expect(200);
    await emu.clock.advance(0);
    const log = await api.get("/api/v1/webhooks/deliveries?limit=100").set("X-API-Key", tenant).expect(200);
    const types = log.body.data.deliveries.map((d: { event_type: string }) => d.event_type);
    expect(types).toEqual(
      expect.arrayContaining([
        "order.tracking_updated",
        "order.tracking_status_changed",
        "order.returned",
        "card.returned",
      ]),
    );
    const bodies = rx.received.map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });
    expect(bodies.find((b) => b.event === "card.returned")?.data).toMatchObject({
      unique_id: id,
      order_id: o.order_id,
      location: "OFFCHAIN",
    });
    expect(bodies.find((b) => b.event === "order.returned")?.data).toMatchObject({
      order_id: o.order_id,
      status: "RETURNED",
      unique_ids: [id],
    });
  });
});
