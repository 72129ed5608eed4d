import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { placeOrder, shippable } from "./helpers.ts";
import { expectWarehouseError } from "../../conformance/assert.ts";

// What was billed, missed or granted stays true: a voided label is not billed,
// invoice ids name one tenant's month, a service credit is approved at once
// only up to the label cost, and a cancel does not erase a missed deadline.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

type Line = { kind: string; description: string; quantity: number; unit_amount: string; amount: string };
type Invoice = { invoice_id: string; month: string; lines: Line[]; total: string };

const tenantKey = (account_id: string) => newKey(api, { kind: "tenant", account_id });
const close = async (account_id: string, month = emu.clock.nowIso().slice(0, 7)) =>
  (await api.post("/_emulator/warehouse/billing/close").send({ account_id, month }).expect(201)).body.data as Invoice;
const labels = (inv: Invoice) =>
  inv.lines.filter((l) => l.kind === "label").map((l) => [l.quantity, l.unit_amount, l.amount]);

describe("voided labels are not billed", () => {
  it("an order cancelled in LABEL_PURCHASED (label voided) leaves the month's invoice: 1 label billed, not 2", async () => {
    const key = await tenantKey("voider");
    const [a, b] = await shippable(api, key, 2);
    const voided = await placeOrder(emu, api, key, [a]);
    expect(voided.status).toBe("LABEL_PURCHASED");
    const cancelled = await api.post(`/api/v1/orders/${voided.order_id}/cancel`).set("X-API-Key", key).expect(200);
    expect(cancelled.body.data).toMatchObject({ status: "CANCELLED", cancel_reason: "cancelled_label_voided" });
    await placeOrder(emu, api, key, [b]);
    const inv = await close("voider");
    expect(labels(inv)).toEqual([[1, "5.40", "5.40"]]);
    const storage = inv.lines.find((l) => l.kind === "storage")!;
    expect(inv.total).toBe(((Number(storage.amount) * 100 + 540) / 100).toFixed(2));
  });

  it("a label voided after its month was invoiced is credited on the next invoice (the issued one never changes)", async () => {
    const key = await tenantKey("late-voider");
    const [a] = await shippable(api, key, 1);
    const o = await placeOrder(emu, api, key, [a]);
    const month = emu.clock.nowIso().slice(0, 7);
    const first = await close("late-voider", month);
    expect(labels(first)).toEqual([[1, "5.40", "5.40"]]);
    await emu.clock.advance(32 * 86_400_000);
    await api.post(`/api/v1/orders/${o.order_id}/cancel`).set("X-API-Key", key).expect(200);
    const next = await close("late-voider");
    expect(next.month).not.toBe(month);
    expect(labels(next)).toEqual([[1, "-5.40", "-5.40"]]);
    const again = await api.get(`/api/v1/invoices/${first.invoice_id}`).set("X-API-Key", key).expect(200);
    expect(again.body.data).toEqual(first);
  });
});

describe("nothing done after a month closes goes unbilled", () => {
  it("a label, a withdrawal and an inbound shipment after the current month was closed are billed on the next invoice; voiding that label then unbills it", async () => {
    const key = await tenantKey("after-close");
    const month = emu.clock.nowIso().slice(0, 7);
    const closed = await close("after-close", month);
    expect(labels(closed)).toEqual([]);
    const [a, b, c] = await shippable(api, key, 3);
    await placeOrder(emu, api, key, [a]);
    const voided = await placeOrder(emu, api, key, [b]);
    await api
      .post("/api/v1/withdrawals")
      .set("X-API-Key", key)
      .send({ unique_ids: [c], method: "pickup" })
      .expect(201);
    const s = await api
      .post("/api/v1/inbound-shipments")
      .set("X-API-Key", key)
      .send({ expected_card_count: 1, declared_value_per_card: 500 })
      .expect(201);
    await api
      .post(`/_emulator/warehouse/inbound-shipments/${s.body.data.inbound_shipment_id}/receive`)
      .send({ account_id: "after-close" })
      .expect(200);
    await api.post(`/api/v1/orders/${voided.order_id}/cancel`).set("X-API-Key", key).expect(200);
    expect(emu.clock.nowIso().slice(0, 7)).toBe(month);
    await emu.clock.advance(32 * 86_400_000);
    const next = await close("after-close");
    expect(labels(next)).toEqual([[1, "5.40", "5.40"]]);
    expect(
      next.lines.filter((l) => l.kind !== "storage" && l.kind !== "label").map((l) => [l.kind, l.quantity, l.amount]),
    ).toEqual([
      ["inbound", 1, "2.50"],
      ["withdrawal", 1, "5.00"],
    ]);
    // A month not yet begun cannot be closed (its usage would move to the month after).
    const future = await api
      .post("/_emulator/warehouse/billing/close")
      .send({ account_id: "after-close", month: "2099-01" })
      .expect(400);
    expect(future.body.error).toBe("invalid_value");
    expect(
      (await api.get("/api/v1/invoices").set("X-API-Key", key).expect(200)).body.data.invoices.map(
        (i: Invoice) => i.month,
      ),
    ).not.toContain("2099-01");
  });
});

describe("invoice ids are unique across tenants", () => {
  it("accounts sharing a prefix, one-letter and non-ASCII accounts never share an invoice id", async () => {
    const accounts = ["tenant-a", "tenant-b", "x", "y", "日本", "東京"];
    const ids: string[] = [];
    for (const account of accounts) {
      const key = await tenantKey(account);
      const past = (await api.get("/api/v1/invoices").set("X-API-Key", key).expect(200)).body.data
        .invoices as Invoice[];
      ids.push(...past.map((i) => i.invoice_id), (await close(account)).invoice_id);
    }
    expect(ids).toHaveLength(accounts.length * 3);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^INV-[A-Z]{3}[0-9A-Z]{4}-\d{6}$/);
    // Each id answers for its own tenant only.
    const a = await tenantKey("tenant-a");
    const bId = ids[3 + 2];
    expectWarehouseError(await api.get(`/api/v1/invoices/${bId}`).set("X-API-Key", a), 404, "not_found");
  });
});

describe("service credits", () => {
  const lateOrder = async (account: string) => {
    const key = await tenantKey(account);
    const [id] = await shippable(api, key, 1);
    const o = await placeOrder(emu, api, key, [id]);
    await emu.clock.advance(4 * 86_400_000);
    return { key, order: o };
  };
  const ask = (key: string, body: Record<string, unknown>) =>
    api.post("/api/v1/service-credits").set("X-API-Key", key).send(body);

  it("a late order's credit above the label cost goes to review; up to it, or by default, it is approved", async () => {
    const big = await lateOrder("credit-big");
    const res = await ask(big.key, { reason: "late", order_id: big.order.order_id, amount: 540000 }).expect(201);
    expect(res.body.data).toMatchObject({ status: "UNDER_REVIEW", amount: 540000 });
    expect(res.body.data.decision).toContain("540 cents");

    const exact = await lateOrder("credit-exact");
    expect(
      (await ask(exact.key, { reason: "late", order_id: exact.order.order_id, amount: 540 }).expect(201)).body.data,
    ).toMatchObject({ status: "APPROVED", amount: 540 });
    const dflt = await lateOrder("credit-default");
    expect(
      (await ask(dflt.key, { reason: "late", order_id: dflt.order.order_id }).expect(201)).body.data,
    ).toMatchObject({ status: "APPROVED", amount: 540 });
    const listed = (await api.get("/api/v1/service-credits").set("X-API-Key", big.key).expect(200)).body.data
      .service_credits;
    expect(listed).toEqual([expect.objectContaining({ status: "UNDER_REVIEW", amount: 540000 })]);
  });

  it("amounts are bounded: above USD 10,000,000 is 400 invalid_amount, nothing recorded", async () => {
    const { key, order } = await lateOrder("credit-bound");
    expectWarehouseError(
      await ask(key, { reason: "late", order_id: order.order_id, amount: 1_000_000_001 }),
      400,
      "invalid_amount",
    );
    expectWarehouseError(await ask(key, { reason: "late", amount: Number.MAX_SAFE_INTEGER }), 400, "invalid_amount");
    expect((await api.get("/api/v1/service-credits").set("X-API-Key", key).expect(200)).body.data.total).toBe(0);
  });
});

describe("a missed SLA stays missed", () => {
  it("cancelling an order past its sla_due_at keeps it missed; cancelling before it is no miss", async () => {
    const key = await tenantKey("sla-keeper");
    const [a, b] = await shippable(api, key, 2);
    const early = await placeOrder(emu, api, key, [a]);
    await api.post(`/api/v1/orders/${early.order_id}/cancel`).set("X-API-Key", key).expect(200);
    const late = await placeOrder(emu, api, key, [b]);
    const month = emu.clock.nowIso().slice(0, 7);
    await emu.clock.advance(4 * 86_400_000);
    const sla = async () => (await api.get(`/api/v1/sla?month=${month}`).set("X-API-Key", key).expect(200)).body.data;
    expect(await sla()).toMatchObject({
      orders_committed: 2,
      orders_shipped: 0,
      missed_sla: 1,
      late_order_ids: [late.order_id],
    });
    await api.post(`/api/v1/orders/${late.order_id}/cancel`).set("X-API-Key", key).expect(200);
    expect(await sla()).toMatchObject({
      orders_committed: 2,
      orders_shipped: 0,
      missed_sla: 1,
      late_order_ids: [late.order_id],
      on_time_rate: "0.0000",
    });
    const credit = await api
      .post("/api/v1/service-credits")
      .set("X-API-Key", key)
      .send({ reason: "late", order_id: late.order_id })
      .expect(201);
    // still a miss, but its label was voided on cancel: nothing was billed to pay back at once (issue 37)
    expect(credit.body.data).toMatchObject({ status: "UNDER_REVIEW", amount: null });
    expect(credit.body.data.decision).toContain("voided and not billed");
    const notLate = await api
      .post("/api/v1/service-credits")
      .set("X-API-Key", key)
      .send({ reason: "early", order_id: early.order_id })
      .expect(201);
    expect(notLate.body.data.status).toBe("UNDER_REVIEW");
    expect(notLate.body.data.decision).toContain("no missed SLA");
  });
});

describe("warehouse money is integer cents", () => {
  it("pricing a card computes the insured price (110%) in cents, rounding half up; a price with three decimals is refused", async () => {
    const key = await tenantKey("pricer");
    const cards = (await api.get("/api/v1/inventory?limit=100").set("X-API-Key", key).expect(200)).body.data.cards as {
      unique_id: string;
      identity: { status: string };
    }[];
    const id = cards.find((c) => c.identity.status === "unconfirmed")!.unique_id;
    await api.post(`/_emulator/warehouse/cards/${id}/confirm-identity`).send({}).expect(200);
    // 0.95 × 1.1 = 1.045 → 1.05 (a float product rounds it to 1.04)
    const priced = await api.post(`/_emulator/warehouse/cards/${id}/price`).send({ market_price: "0.95" }).expect(200);
    expect(priced.body.data).toMatchObject({
      pricing: { status: "priced", market_price: "0.95" },
      insured_price: "1.05",
      declared_value: { amount: 95, source: "service" },
    });
    expect(
      (await api.post(`/_emulator/warehouse/cards/${id}/price`).send({ market_price: 2.05 }).expect(200)).body.data,
    ).toMatchObject({ insured_price: "2.26", declared_value: { amount: 205 } });
    const bad = await api.post(`/_emulator/warehouse/cards/${id}/price`).send({ market_price: 1.005 }).expect(400);
    expect(bad.body.error).toBe("invalid_value");
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", key).expect(200)).body.data.declared_value).toEqual({
      amount: 205,
      source: "service",
    });
  });
});
