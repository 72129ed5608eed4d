import { describe, it, expect } from "vitest";
import { type Api, useEmulator } from "../helpers.ts";
import { sweep, type WireCard } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

// The interface's identity/pricing combinations, one row each:
//   pending identity     unconfirmed / unverified, null prices, a tenant declared value
//   published, unpriced  confirmed / unpriced,     null prices, null declared value
//   published, priced    confirmed / priced,       decimal prices, a service declared value
// and how tenant submissions and operator actions keep every card on its row.

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { ...ctx, tenant: ctx.emu.key("tenant") }));

const post = (path: string, body: unknown) =>
  api
    .post(path)
    .set("X-API-Key", tenant)
    .send(body as object);
const card = async (id: string) =>
  (await api.get(`/api/v1/cards/${id}`).set("X-API-Key", tenant).expect(200)).body.data as WireCard;
const op = (id: string, action: string, body: Record<string, unknown> = {}) =>
  api.post(`/_emulator/warehouse/cards/${id}/${action}`).send(body);

/** Receives a new shipment and returns its (pending) cards. */
async function receive(count: number, declared: number): Promise<string[]> {
  const s = (
    await post("/api/v1/inbound-shipments", { expected_card_count: count, declared_value_per_card: declared }).expect(
      201,
    )
  ).body.data.inbound_shipment_id;
  return (await api.post(`/_emulator/warehouse/inbound-shipments/${s}/receive`).send({}).expect(200)).body.data
    .inbound_shipment.received_unique_ids;
}

describe("pending identity: a tenant declared value", () => {
  it("every pending fixture card and every received card carries one", async () => {
    const pending = (await sweep(api, tenant, "all")).filter((c) => c.identity.status === "unconfirmed");
    expect(pending.length).toBeGreaterThan(0);
    for (const c of pending) {
      expect(c.pricing).toEqual({ status: "unverified", market_price: null });
      expect(c.insured_price).toBeNull();
      expect(c.declared_value).toEqual({ amount: expect.any(Number), source: "tenant" });
      expect(Number.isInteger(c.declared_value!.amount) && c.declared_value!.amount > 0).toBe(true);
    }
    for (const id of await receive(2, 1999))
      expect((await card(id)).declared_value).toEqual({ amount: 1999, source: "tenant" });
  });

  it("so announcing needs declared_value_per_card (400 invalid_amount), and an update cannot clear it", async () => {
    expectWarehouseError(await post("/api/v1/inbound-shipments", { expected_card_count: 1 }), 400, "invalid_amount");
    const s = (
      await post("/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 500 }).expect(201)
    ).body.data.inbound_shipment_id;
    const cleared = await api
      .patch(`/api/v1/inbound-shipments/${s}`)
      .set("X-API-Key", tenant)
      .send({ declared_value_per_card: null })
      .expect(400);
    expectWarehouseError(cleared, 400, "invalid_amount");
    const changed = await api
      .patch(`/api/v1/inbound-shipments/${s}`)
      .set("X-API-Key", tenant)
      .send({ declared_value_per_card: 750 })
      .expect(200);
    expect(changed.body.data.declared_value_per_card).toBe(750);
  });

  it("the tenant may change it while the identity is pending", async () => {
    const [id] = await receive(1, 1000);
    await post("/api/v1/declared-values", { unique_id: id, amount: 4200 }).expect(201);
    expect((await card(id)).declared_value).toEqual({ amount: 4200, source: "tenant" });
  });
});

describe("published, unpriced: null declared value", () => {
  it("publishing the identity drops the tenant's value from the card (noted in the activity log); the tenant cannot put one back", async () => {
    const [id] = await receive(1, 2500);
    const confirmed = await op(id, "confirm-identity").expect(200);
    expect(confirmed.body.data).toMatchObject({
      identity: { status: "confirmed" },
      pricing: { status: "unpriced", market_price: null },
      insured_price: null,
      declared_value: null,
    });
    const activity = (
      await api.get("/api/v1/activity?kind=card.identity_confirmed").set("X-API-Key", tenant).expect(200)
    ).body.data.activity as { summary: string }[];
    expect(activity[0].summary).toContain("tenant declared value of 2500 cents");

    const res = await post("/api/v1/declared-values", { unique_id: id, amount: 9900 }).expect(409);
    expectWarehouseError(res, 409, "not_eligible");
    expect(res.body.data).toMatchObject({ unique_id: id, identity: { status: "confirmed" }, declared_value: null });
    expect((await card(id)).declared_value).toBeNull();
    const fixtureUnpriced = (await sweep(api, tenant, "all")).filter((c) => c.pricing.status === "unpriced");
    expect(fixtureUnpriced.length).toBeGreaterThan(0);
    expect(
      fixtureUnpriced.every(
        (c) => c.declared_value === null && c.insured_price === null && c.pricing.market_price === null,
      ),
    ).toBe(true);
  });
});

describe("published, priced: a service declared value", () => {
  it("the tenant cannot replace it; operator pricing and re-pricing keep it the service's; clearing the price returns to null", async () => {
    const priced = (await sweep(api, tenant, "all")).filter((c) => c.pricing.status === "priced");
    expect(
      priced.every((c) => c.declared_value?.source === "service" && /^\d+\.\d{2}$/.test(c.pricing.market_price!)),
    ).toBe(true);
    const id = priced[0].unique_id;
    const res = await post("/api/v1/declared-values", { unique_id: id, amount: 1 }).expect(409);
    expectWarehouseError(res, 409, "not_eligible");
    expect((await card(id)).declared_value).toEqual(priced[0].declared_value);
    expect(
      (await api.get(`/api/v1/declared-values?unique_id=${id}`).set("X-API-Key", tenant).expect(200)).body.data
        .declared_values,
    ).toEqual([]);

    const repriced = await op(id, "price", { market_price: "80.25" }).expect(200);
    expect(repriced.body.data).toMatchObject({
      pricing: { status: "priced", market_price: "80.25" },
      insured_price: "88.28",
      declared_value: { amount: 8025, source: "service" },
    });
    const cleared = await op(id, "price", { market_price: null }).expect(200);
    expect(cleared.body.data).toMatchObject({
      pricing: { status: "unpriced", market_price: null },
      insured_price: null,
      declared_value: null,
    });
  });

  it("a card that went from pending to priced shows only the service's value", async () => {
    const [id] = await receive(1, 3000);
    await op(id, "confirm-identity").expect(200);
    await op(id, "price", { market_price: "12.00" }).expect(200);
    expect((await card(id)).declared_value).toEqual({ amount: 1200, source: "service" });
    // pricing a pending card is refused: it would skip the published row
    const [pending] = await receive(1, 3000);
    expectError(await op(pending, "price", { market_price: "12.00" }), 409, "invalid_status");
    expect((await card(pending)).declared_value).toEqual({ amount: 3000, source: "tenant" });
  });
});
