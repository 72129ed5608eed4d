import { describe, it, expect, beforeEach } from "vitest";
import { newKey, type Api, type Emulator } from "../helpers.ts";
import { DE_ADDRESS, US_ADDRESS, placeOrder, quote, recordEvents, shippable, sweep, useTenant } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let tenant: string;
const { post } = useTenant((ctx) => ({ emu, api, tenant } = ctx));
beforeEach(async () => {
  await api.delete("/_emulator/faults");
});

describe("POST /shipping-quote", () => {
  it("returns rates with rate_ids for every carrier serving the destination, and an order_id in PENDING_PAYMENT", async () => {
    const [id] = await shippable(api, tenant);
    const res = await post("/api/v1/shipping-quote", { unique_ids: [id], address: US_ADDRESS }).expect(200);
    expect(res.body.data.status).toBe("PENDING_PAYMENT");
    expect(Number.isInteger(res.body.data.order_id)).toBe(true);
    const carriers = new Set(res.body.data.rates.map((r: { carrier: string }) => r.carrier));
    expect(carriers).toEqual(new Set(["usps", "ups", "lso"]));
    for (const r of res.body.data.rates)
      expect(r).toMatchObject({
        rate_id: expect.any(String),
        amount: expect.stringMatching(/^\d+\.\d{2}$/),
        currency: "USD",
      });
    const intl = await post("/api/v1/shipping-quote", {
      unique_ids: [id],
      address: { ...DE_ADDRESS, phone: "+49 30 1234" },
      carriers: ["dhl_express"],
    }).expect(200);
    expect(intl.body.data.rates.map((r: { carrier: string }) => r.carrier)).toEqual(["dhl_express"]);
  });

  it("validates input in order with the documented codes", async () => {
    const [id] = await shippable(api, tenant);
    const cases: [unknown, number, string][] = [
      [{ unique_ids: id, address: US_ADDRESS }, 400, "invalid_unique_ids"],
      [{ address: US_ADDRESS }, 400, "invalid_unique_ids"],
      [{ unique_ids: [], address: US_ADDRESS }, 400, "invalid_unique_ids"],
      [{ unique_ids: [id, id], address: US_ADDRESS }, 400, "invalid_unique_ids"],
      [
        { unique_ids: Array.from({ length: 501 }, (_, i) => `CARD-X${i}`), address: US_ADDRESS },
        400,
        "invalid_pagination",
      ],
      [{ unique_ids: [id] }, 400, "missing_shipping_address"],
      [{ unique_ids: [id], address: { ...US_ADDRESS, street1: "" } }, 400, "invalid_address"],
      [{ unique_ids: [id], address: { ...US_ADDRESS, country: "USA" } }, 400, "invalid_address"],
      [{ unique_ids: [id], address: DE_ADDRESS }, 400, "phone_required"],
      [{ unique_ids: [id], address: US_ADDRESS, carriers: ["fedex"] }, 400, "unknown_carrier"],
      [{ unique_ids: [id], address: US_ADDRESS, carriers: ["dhl_express"] }, 422, "no_rates"],
      [{ unique_ids: ["CARD-NOPE0001"], address: US_ADDRESS }, 404, "not_found"],
    ];
    for (const [body, status, code] of cases) {
      expectWarehouseError(await post("/api/v1/shipping-quote", body), status, code, code);
    }
    const bad = await post("/api/v1/shipping-quote", {
      unique_ids: [id],
      address: US_ADDRESS,
      carriers: ["usps", "fedex"],
    });
    expect(bad.body.details).toMatchObject({ unknown: ["fedex"], available: ["usps", "ups", "dhl_express", "lso"] });
    expectWarehouseError(
      await api
        .post("/api/v1/shipping-quote")
        .set("X-API-Key", tenant)
        .set("Content-Type", "application/json")
        .send("{oops"),
      400,
      "invalid_json",
    );
  });

  it("409 not_eligible carries data naming each blocked card and why (pending identity, ONCHAIN)", async () => {
    const all = await sweep(api, tenant, "all");
    const pending = all.find((c) => c.identity.status === "unconfirmed")!;
    const onchain = all.find((c) => c.location === "ONCHAIN")!;
    const res = await post("/api/v1/shipping-quote", {
      unique_ids: [pending.unique_id, onchain.unique_id],
      address: US_ADDRESS,
    }).expect(409);
    expectWarehouseError(res, 409, "not_eligible");
    expect(res.body.data.cards).toEqual([
      expect.objectContaining({ unique_id: pending.unique_id, reason: "identity not confirmed" }),
      expect.objectContaining({ unique_id: onchain.unique_id, reason: expect.stringContaining("ONCHAIN") }),
    ]);
  });

  it("needs write:order (403 for a read-only tenant key) and a tenant key (403 for partners)", async () => {
    const ro = emu.key("tenant-readonly");
    expectWarehouseError(
      await post("/api/v1/shipping-quote", { unique_ids: ["x"], address: US_ADDRESS }, ro),
      403,
      "Insufficient permissions",
    );
    expectWarehouseError(
      await post("/api/v1/orders", { order_id: 1, rate_id: "x" }, ro),
      403,
      "Insufficient permissions",
    );
    expectWarehouseError(await post("/api/v1/orders/1/cancel", {}, ro), 403, "Insufficient permissions");
    expectWarehouseError(
      await post("/api/v1/shipping-quote", { unique_ids: ["x"], address: US_ADDRESS }, emu.key("demo")),
      403,
      "Insufficient permissions",
    );
    // orders list/get need only a tenant key
    await api.get("/api/v1/orders").set("X-API-Key", ro).expect(200);
    expectWarehouseError(
      await api.get("/api/v1/orders").set("X-API-Key", emu.key("demo")),
      403,
      "Insufficient permissions",
    );
  });

  it("re-quoting supersedes the caller's uncommitted quote (409 quote_superseded with data; old rate on the new order is 404)", async () => {
    const key = await newKey(api, { kind: "tenant" });
    const [id] = await shippable(api, key);
    const first = await quote(api, key, [id]);
    const second = await post("/api/v1/shipping-quote", { unique_ids: [id], address: US_ADDRESS }, key).expect(200);
    expect(second.body.data.superseded_order_id).toBe(first.order_id);
    const stale = await post(
      "/api/v1/orders",
      { order_id: first.order_id, rate_id: first.rates[0].rate_id },
      key,
    ).expect(409);
    expectWarehouseError(stale, 409, "quote_superseded");
    expect(stale.body.data).toMatchObject({
      order_id: first.order_id,
      status: "CANCELLED",
      superseded_by: second.body.data.order_id,
    });
    const wrongRate = await post(
      "/api/v1/orders",
      { order_id: second.body.data.order_id, rate_id: first.rates[0].rate_id },
      key,
    ).expect(404);
    expectWarehouseError(wrongRate, 404, "rate_not_found");
    // another caller's quote is not superseded
    const other = await quote(api, tenant, [id]);
    await post(
      "/api/v1/orders",
      { order_id: second.body.data.order_id, rate_id: second.body.data.rates[0].rate_id },
      key,
    ).expect(202);
    const res = await post("/api/v1/orders", { order_id: other.order_id, rate_id: other.rates[0].rate_id }).expect(409);
    expectWarehouseError(res, 409, "not_eligible");
    await emu.clock.advance(3_000);
  });
});

describe("re-quoting after a label failure", () => {
  it("supersedes every uncommitted quote of the caller, including the order a failure put back in PENDING_PAYMENT", async () => {
    const key = await newKey(api, { kind: "tenant", account_id: "requoter" });
    const [x, y] = await shippable(api, key, 2);
    const a = await quote(api, key, [x]);
    await api.post("/_emulator/warehouse/labels/fail-next").send({ account_id: "requoter", times: 1 }).expect(200);
    await post("/api/v1/orders", { order_id: a.order_id, rate_id: a.rates[0].rate_id }, key).expect(202);
    // while A buys its label, the caller quotes other cards (B); then A's label fails
    const b = await quote(api, key, [y]);
    await emu.clock.advance(3_000);
    expect((await api.get(`/api/v1/orders/${a.order_id}`).set("X-API-Key", key)).body.data.status).toBe(
      "PENDING_PAYMENT",
    );

    const c = await post("/api/v1/shipping-quote", { unique_ids: [x], address: US_ADDRESS }, key).expect(200);
    expect(c.body.data.superseded_order_ids).toEqual([a.order_id, b.order_id]);
    expect(c.body.data.superseded_order_id).toBe(b.order_id);
    for (const old of [a, b]) {
      const res = await post("/api/v1/orders", { order_id: old.order_id, rate_id: old.rates[0].rate_id }, key).expect(
        409,
      );
      expectWarehouseError(res, 409, "quote_superseded");
      expect(res.body.data).toMatchObject({
        order_id: old.order_id,
        status: "CANCELLED",
        cancel_reason: "superseded",
        superseded_by: c.body.data.order_id,
      });
    }
    const open = (await api.get("/api/v1/orders?status=PENDING_PAYMENT&limit=100").set("X-API-Key", key)).body.data
      .orders as { order_id: number; unique_ids: string[] }[];
    expect(open.filter((o) => o.unique_ids.includes(x)).map((o) => o.order_id)).toEqual([c.body.data.order_id]);
    await post("/api/v1/orders", { order_id: c.body.data.order_id, rate_id: c.body.data.rates[0].rate_id }, key).expect(
      202,
    );
    await emu.clock.advance(3_000);
    expect((await api.get(`/api/v1/orders/${c.body.data.order_id}`).set("X-API-Key", key)).body.data.status).toBe(
      "LABEL_PURCHASED",
    );
  });

  it("a re-quote after a failure supersedes the failed order; with nothing open it supersedes nothing", async () => {
    const key = await newKey(api, { kind: "tenant", account_id: "requoter" });
    const [x] = await shippable(api, key);
    const a = await quote(api, key, [x]);
    await api.post("/_emulator/warehouse/labels/fail-next").send({ account_id: "requoter", times: 1 }).expect(200);
    await post("/api/v1/orders", { order_id: a.order_id, rate_id: a.rates[0].rate_id }, key).expect(202);
    await emu.clock.advance(3_000);
    const first = await post("/api/v1/shipping-quote", { unique_ids: [x], address: US_ADDRESS }, key).expect(200);
    expect(first.body.data.superseded_order_ids).toEqual([a.order_id]);
    // a quote with nothing to supersede says so
    await post(`/api/v1/orders/${first.body.data.order_id}/cancel`, {}, key).expect(200);
    const fresh = await post("/api/v1/shipping-quote", { unique_ids: [x], address: US_ADDRESS }, key).expect(200);
    expect(fresh.body.data).toMatchObject({ superseded_order_id: null, superseded_order_ids: [] });
    await post(`/api/v1/orders/${fresh.body.data.order_id}/cancel`, {}, key).expect(200);
  });
});

describe("an order's rate_id (a string, as the interface types it)", () => {
  it("is the quote's cheapest rate until a rate is chosen, the chosen one after, and the cheapest again after a failed label purchase", async () => {
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    // Amounts have two decimals ("12.50"): compared as integer cents.
    const cents = (a: { amount: string }) => BigInt(a.amount.replace(".", ""));
    const byAmount = [...q.rates].sort((a, b) => (cents(a) < cents(b) ? -1 : cents(a) > cents(b) ? 1 : 0));
    const [cheapest, dearest] = [byAmount[0]!, byAmount.at(-1)!];
    expect(cheapest.rate_id).not.toBe(dearest.rate_id);
    const order = async () => (await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data;
    const listed = async () =>
      (await api.get("/api/v1/orders").set("X-API-Key", tenant)).body.data.orders.find(
        (o: { order_id: number }) => o.order_id === q.order_id,
      );
    expect(await order()).toMatchObject({ status: "PENDING_PAYMENT", rate_id: cheapest.rate_id, carrier: null });
    expect(await listed()).toMatchObject({ rate_id: cheapest.rate_id });
    await api.post("/_emulator/warehouse/labels/fail-next").send({ times: 1 }).expect(200);
    const committed = await post("/api/v1/orders", { order_id: q.order_id, rate_id: dearest.rate_id }).expect(202);
    expect(committed.body.data).toMatchObject({ status: "LABEL_PURCHASING", rate_id: dearest.rate_id });
    await emu.clock.advance(3_000);
    expect(await order()).toMatchObject({ status: "PENDING_PAYMENT", rate_id: cheapest.rate_id, carrier: null });
  });
});

describe("POST /orders (commit)", () => {
  it("buys the label a few seconds later on the clock, with ship_by_at and sla_due_at in UTC", async () => {
    const rec = recordEvents(emu);
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    const res = await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(202);
    expect(res.body.data).toMatchObject({
      order_id: q.order_id,
      status: "LABEL_PURCHASING",
      rate_id: q.rates[0].rate_id,
      attempts: 1,
    });
    const inv = await api
      .get("/api/v1/inventory")
      .query({ status: "RESERVED", limit: 100 })
      .set("X-API-Key", tenant)
      .expect(200);
    expect(inv.body.data.cards.map((c: { unique_id: string }) => c.unique_id)).toContain(id);
    await emu.clock.advance(2_999);
    expect((await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data.status).toBe(
      "LABEL_PURCHASING",
    );
    await emu.clock.advance(1);
    const done = (await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant).expect(200)).body.data;
    expect(done).toMatchObject({
      status: "LABEL_PURCHASED",
      tracking_number: expect.any(String),
      tracking_status: "label_created",
    });
    expect(done.ship_by_at).toMatch(/Z$/);
    expect(done.sla_due_at).toMatch(/Z$/);
    expect(Date.parse(done.sla_due_at)).toBeGreaterThan(Date.parse(done.ship_by_at));
    expect(rec.of("order.tracking_updated").map((e) => e.data.order_id)).toContain(q.order_id);
    rec.off();
    // a retry of the same commit answers with the order as it is; another rate is 409 invalid_status with data
    await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(202);
    const other = await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[1].rate_id }).expect(409);
    expectWarehouseError(other, 409, "invalid_status");
    expect(other.body.data.status).toBe("LABEL_PURCHASED");
  });

  it("rejects bad bodies and unknown orders", async () => {
    expectWarehouseError(await post("/api/v1/orders", { order_id: "12", rate_id: "r" }), 400, "invalid_order_id");
    expectWarehouseError(await post("/api/v1/orders", { order_id: 1.5, rate_id: "r" }), 400, "invalid_order_id");
    expectWarehouseError(await post("/api/v1/orders", { order_id: 12 }), 400, "invalid_rate_id");
    expectWarehouseError(await post("/api/v1/orders", { order_id: 999999999, rate_id: "r" }), 404, "not_found");
    const other = await newKey(api, { kind: "tenant", account_id: "globex" });
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    expectWarehouseError(
      await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }, other),
      404,
      "not_found",
    );
    expectWarehouseError(await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", other), 404, "not_found");
    expectWarehouseError(await api.get("/api/v1/orders/abc").set("X-API-Key", tenant), 404, "not_found");
  });

  it("an expired quote is 409 quote_expired with the order", async () => {
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    await emu.clock.advance(24 * 3600_000 + 1);
    const res = await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(409);
    expectWarehouseError(res, 409, "quote_expired");
    expect(res.body.data.order_id).toBe(q.order_id);
  });

  it("a failed label purchase leaves PENDING_PAYMENT with nothing applied, and a retry is safe (operator failure and carrier fault)", async () => {
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    await api.post("/_emulator/warehouse/labels/fail-next").send({ times: 1 }).expect(200);
    await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(202);
    await emu.clock.advance(3_000);
    let o = (await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data;
    expect(o).toMatchObject({
      status: "PENDING_PAYMENT",
      rate_id: expect.any(String),
      tracking_number: null,
      last_error: { code: "label_purchase_failed" },
    });
    const card = await api
      .get("/api/v1/inventory")
      .query({ status: "AVAILABLE", limit: 100, type: "all" })
      .set("X-API-Key", tenant);
    expect(card.body.data.cards.map((c: { unique_id: string }) => c.unique_id)).toContain(id);

    // a fault on the carrier's label endpoint fails the next attempt the same way
    await api
      .post("/_emulator/faults")
      .send({
        match: { method: "POST", path: "/carrier/ups/labels" },
        status: 502,
        error: "carrier_unavailable",
        times: 1,
      })
      .expect(201);
    const ups = q.rates.find((r) => r.carrier === "ups")!;
    await post("/api/v1/orders", { order_id: q.order_id, rate_id: ups.rate_id }).expect(202);
    await emu.clock.advance(3_000);
    o = (await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data;
    expect(o).toMatchObject({ status: "PENDING_PAYMENT", last_error: { code: "carrier_unavailable" }, attempts: 2 });

    await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(202);
    await emu.clock.advance(3_000);
    o = (await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data;
    expect(o).toMatchObject({ status: "LABEL_PURCHASED", attempts: 3, last_error: null });
  });

  it("a label purchase in flight survives snapshot/restore (re-armed from state)", async () => {
    const [id] = await shippable(api, tenant);
    const q = await quote(api, tenant, [id]);
    const snap = await emu.snapshot();
    await post("/api/v1/orders", { order_id: q.order_id, rate_id: q.rates[0].rate_id }).expect(202);
    const inFlight = await emu.snapshot();
    await emu.restore(snap);
    await emu.clock.advance(3_000);
    expect((await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data.status).toBe(
      "PENDING_PAYMENT",
    );
    await emu.restore(inFlight);
    await emu.clock.advance(3_000);
    expect((await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", tenant)).body.data.status).toBe(
      "LABEL_PURCHASED",
    );
  });
});

describe("orders list, get, cancel", () => {
  it("lists newest first with a status filter (400 invalid_status otherwise)", async () => {
    const res = await api.get("/api/v1/orders").query({ limit: 100 }).set("X-API-Key", tenant).expect(200);
    const ids = res.body.data.orders.map((o: { order_id: number }) => o.order_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(res.body.pagination).toMatchObject({ limit: 100, offset: 0 });
    const purchased = await api.get("/api/v1/orders?status=LABEL_PURCHASED").set("X-API-Key", tenant).expect(200);
    expect(purchased.body.data.orders.every((o: { status: string }) => o.status === "LABEL_PURCHASED")).toBe(true);
    expectWarehouseError(await api.get("/api/v1/orders?status=LOST").set("X-API-Key", tenant), 400, "invalid_status");
  });

  it("cancels a quote or a purchased label (cards released); a shipped order is 409 invalid_status", async () => {
    const [a, b] = await shippable(api, tenant, 2);
    const q = await quote(api, tenant, [a]);
    const c1 = await post(`/api/v1/orders/${q.order_id}/cancel`, {}).expect(200);
    expect(c1.body.data).toMatchObject({ status: "CANCELLED", cancel_reason: "cancelled" });
    const placed = await placeOrder(emu, api, tenant, [b]);
    const c2 = await post(`/api/v1/orders/${placed.order_id}/cancel`, {}).expect(200);
    expect(c2.body.data).toMatchObject({ status: "CANCELLED", cancel_reason: "cancelled_label_voided" });
    expect((await shippable(api, tenant, 40)).includes(b)).toBe(true);
    const again = await post(`/api/v1/orders/${placed.order_id}/cancel`, {}).expect(409);
    expectWarehouseError(again, 409, "invalid_status");
    expect(again.body.data.status).toBe("CANCELLED");
    const [c] = await shippable(api, tenant);
    const shipped = await placeOrder(emu, api, tenant, [c]);
    await api.post(`/_emulator/warehouse/orders/${shipped.order_id}/ship`).expect(200);
    expectWarehouseError(await post(`/api/v1/orders/${shipped.order_id}/cancel`, {}), 409, "invalid_status");
    expectWarehouseError(await post("/api/v1/orders/123456789/cancel", {}), 404, "not_found");
  });
});

describe("tracking, carrier return and scan-back", () => {
  it("ship → deliver emits tracking events; the cards leave the listing", async () => {
    const rec = recordEvents(emu);
    const [id] = await shippable(api, tenant);
    const o = await placeOrder(emu, api, tenant, [id]);
    const shipped = await api.post(`/_emulator/warehouse/orders/${o.order_id}/ship`).expect(200);
    expect(shipped.body.data).toMatchObject({ status: "SHIPPED", tracking_status: "in_transit" });
    expect((await sweep(api, tenant)).some((c) => c.unique_id === id)).toBe(false);
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", tenant).expect(200)).body.data.location).toBe(
      "IN_TRANSIT",
    );
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/deliver`).expect(200);
    const changes = rec.of("order.tracking_status_changed").filter((e) => e.data.order_id === o.order_id);
    expect(changes.map((e) => e.data.tracking_status)).toEqual(["in_transit", "delivered"]);
    expect(changes[1].data.previous_tracking_status).toBe("in_transit");
    expect(changes[0].account_id).toBe("northwind");
    expect(rec.of("order.tracking_updated").filter((e) => e.data.order_id === o.order_id)).toHaveLength(3);
    // wrong-state operator actions are clear 409s
    expect((await api.post(`/_emulator/warehouse/orders/${o.order_id}/return`).expect(409)).body.error).toBe(
      "invalid_status",
    );
    expectError(await api.post("/_emulator/warehouse/orders/42/ship"), 404, "not_found");
    rec.off();
  });

  it("carrier return → RETURNED + order.returned; each scan-back → OFFCHAIN + card.returned, orderable again", async () => {
    const rec = recordEvents(emu);
    const ids = await shippable(api, tenant, 2);
    const o = await placeOrder(emu, api, tenant, ids);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/ship`).expect(200);
    const ret = await api.post(`/_emulator/warehouse/orders/${o.order_id}/return`).expect(200);
    expect(ret.body.data).toMatchObject({ status: "RETURNED", awaiting_scan_unique_ids: ids });
    expect(rec.of("order.returned")).toEqual([
      expect.objectContaining({
        key: String(o.order_id),
        data: expect.objectContaining({ order_id: o.order_id, unique_ids: ids }),
      }),
    ]);
    // a returned card is not orderable until it is scanned back
    expectWarehouseError(
      await post("/api/v1/shipping-quote", { unique_ids: [ids[0]], address: US_ADDRESS }),
      409,
      "not_eligible",
    );

    // the same card named three times is refused: nothing is scanned, no card.returned
    expectError(
      await api
        .post(`/_emulator/warehouse/orders/${o.order_id}/scan-back`)
        .send({ unique_ids: [ids[0], ids[0], ids[0]] }),
      400,
      "invalid_value",
    );
    expect(rec.of("card.returned")).toEqual([]);
    await api
      .post(`/_emulator/warehouse/orders/${o.order_id}/scan-back`)
      .send({ unique_ids: [ids[0]] })
      .expect(200);
    expect(rec.of("card.returned").map((e) => e.data.unique_id)).toEqual([ids[0]]);
    expect((await api.get(`/api/v1/cards/${ids[0]}`).set("X-API-Key", tenant)).body.data.location).toBe("OFFCHAIN");
    const rest = await api.post(`/_emulator/warehouse/orders/${o.order_id}/scan-back`).send({}).expect(200);
    expect(rest.body.data.scanned_unique_ids).toEqual([ids[1]]);
    expect(rec.of("card.returned")).toHaveLength(2);
    expectError(
      await api.post(`/_emulator/warehouse/orders/${o.order_id}/scan-back`).send({ unique_ids: [ids[0]] }),
      400,
      "invalid_value",
    );

    const again = await placeOrder(emu, api, tenant, [ids[0]]);
    expect(again.status).toBe("LABEL_PURCHASED");
    rec.off();
  });
});
