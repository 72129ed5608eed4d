import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator } from "../helpers.ts";
import { placeOrder, shippable, sweep, useTenant } from "./helpers.ts";
import { labelLines } from "../../emulator/areas/warehouse/operator.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let tenant: string;
const { post, get } = useTenant((ctx) => ({ emu, api, tenant } = ctx));

describe("declared values", () => {
  it("submit (USD cents, tenant source) updates a pending card; list filters by unique_id", async () => {
    const id = (await sweep(api, tenant, "all")).find((c) => c.identity.status === "unconfirmed")!.unique_id;
    const res = await post("/api/v1/declared-values", { unique_id: id, amount: 12345 }).expect(201);
    expect(res.body.data).toMatchObject({ unique_id: id, amount: 12345, currency: "USD", source: "tenant" });
    expect((await get(`/api/v1/cards/${id}`)).body.data.declared_value).toEqual({ amount: 12345, source: "tenant" });
    const listed = await get(`/api/v1/declared-values?unique_id=${id}`).expect(200);
    expect(listed.body.data.declared_values).toHaveLength(1);
    const replay = await post("/api/v1/declared-values", {
      unique_id: id,
      amount: 999,
      idempotency_key: "dv-1",
    }).expect(201);
    expect(
      (await post("/api/v1/declared-values", { unique_id: id, amount: 999, idempotency_key: "dv-1" }).expect(201)).body
        .data,
    ).toEqual(replay.body.data);
    expect((await get(`/api/v1/declared-values?unique_id=${id}`)).body.data.declared_values).toHaveLength(2);
  });

  it("rejects amounts that are not positive integer cents, unknown cards, and missing scopes", async () => {
    const [id] = await shippable(api, tenant);
    for (const amount of [12.5, "1000", 0, -5, null])
      expectWarehouseError(await post("/api/v1/declared-values", { unique_id: id, amount }), 400, "invalid_amount");
    expectWarehouseError(
      await post("/api/v1/declared-values", { unique_id: id, amount: 100, currency: "EUR" }),
      400,
      "invalid_amount",
    );
    expectWarehouseError(await post("/api/v1/declared-values", { amount: 100 }), 400, "invalid_unique_ids");
    expectWarehouseError(
      await post("/api/v1/declared-values", { unique_id: "CARD-NOPE", amount: 100 }),
      404,
      "not_found",
    );
    expectWarehouseError(
      await post("/api/v1/declared-values", { unique_id: id, amount: 100 }, emu.key("tenant-readonly")),
      403,
      "Insufficient permissions",
    );
    await get("/api/v1/declared-values", emu.key("tenant-readonly")).expect(200);
  });
});

describe("invoices, account, reports: closing a billing month", () => {
  it("fixture invoices exist for past months; closing the month issues an invoice with label and storage lines, and reports", async () => {
    const before = await get("/api/v1/invoices").expect(200);
    expect(before.body.data.invoices.map((i: { month: string }) => i.month)).toEqual(["2025-12", "2025-11"]);
    const [id] = await shippable(api, tenant);
    await placeOrder(emu, api, tenant, [id]);
    const closed = await api.post("/_emulator/warehouse/billing/close").send({}).expect(201);
    expect(closed.body.data).toMatchObject({
      invoice_id: "INV-NOR9MVN-202601",
      month: "2026-01",
      status: "ISSUED",
      currency: "USD",
    });
    const kinds = closed.body.data.lines.map((l: { kind: string }) => l.kind);
    expect(kinds).toEqual(["storage", "label"]);
    const total = closed.body.data.lines.reduce((s: number, l: { amount: string }) => s + Number(l.amount), 0);
    expect(closed.body.data.total).toBe(total.toFixed(2));
    const again = await api.post("/_emulator/warehouse/billing/close").send({}).expect(409);
    expect(again.body.error).toBe("month_closed");
    expectError(await api.post("/_emulator/warehouse/billing/close").send({ month: "2026-13" }), 400, "invalid_value");
    expect((await get("/api/v1/invoices/INV-NOR9MVN-202601").expect(200)).body.data.total).toBe(closed.body.data.total);
    expectWarehouseError(await get("/api/v1/invoices/INV-NOPE"), 404, "not_found");
    const reports = await get("/api/v1/reports").expect(200);
    expect(reports.body.data.reports.map((r: { kind: string }) => r.kind).sort()).toEqual([
      "inventory_snapshot",
      "monthly_statement",
    ]);
    await get(`/api/v1/reports/${reports.body.data.reports[0].report_id}`).expect(200);
    expectWarehouseError(await get("/api/v1/reports/777"), 404, "not_found");
  });

  it("account summarises the tenant and its inventory", async () => {
    const res = await get("/api/v1/account").expect(200);
    const all = await sweep(api, tenant, "all");
    expect(res.body.data).toMatchObject({
      account_id: "northwind",
      unique_id_prefix: "CARD-NOR",
      inventory: { cards: all.length },
    });
    const noRead = await newKey(api, { kind: "tenant", scopes: ["write:order"] });
    expectWarehouseError(await get("/api/v1/account", noRead), 403, "Insufficient permissions");
  });
});

describe("invoice lines add up (quantity × unit_amount = amount, exactly)", () => {
  const cents = (usd: string) => Math.round(Number(usd) * 100);
  type Line = { kind: string; quantity: number; unit_amount: string; amount: string };
  const expectExact = (lines: Line[]) => {
    for (const l of lines)
      expect(l.quantity * cents(l.unit_amount), `${l.kind} ${l.quantity} × ${l.unit_amount}`).toBe(cents(l.amount));
  };

  it("labels whose total does not divide by their count are billed one line per price, never an averaged unit price", async () => {
    const key = await newKey(api, { kind: "tenant", account_id: "invoicer" });
    const ids = await shippable(api, key, 5);
    const orders = [
      await placeOrder(emu, api, key, [ids[0]]),
      await placeOrder(emu, api, key, [ids[1], ids[2]]),
      await placeOrder(emu, api, key, [ids[3], ids[4]]),
    ];
    const amounts = orders.map((o) => cents(o.amount as string));
    const labelCents = amounts.reduce((x, y) => x + y, 0);
    expect(labelCents % 3).not.toBe(0); // (5.40 + 5.75 + 5.75: an average would not multiply back)
    await post("/api/v1/withdrawals", { unique_ids: [(await shippable(api, key))[0]] }, key).expect(201);
    const closed = (await api.post("/_emulator/warehouse/billing/close").send({ account_id: "invoicer" }).expect(201))
      .body.data as { lines: Line[]; total: string; invoice_id: string };
    expectExact(closed.lines);
    const labels = closed.lines.filter((l) => l.kind === "label");
    expect(labels.map((l) => [l.quantity, l.unit_amount])).toEqual([
      [1, "5.40"],
      [2, "5.75"],
    ]);
    expect(labels.reduce((x, l) => x + cents(l.amount), 0)).toBe(labelCents);
    expect(closed.lines.reduce((x, l) => x + cents(l.amount), 0)).toBe(cents(closed.total));
    expect(closed.lines.find((l) => l.kind === "withdrawal")).toMatchObject({
      quantity: 1,
      unit_amount: "5.00",
      amount: "5.00",
    });
    // the fixture invoices add up too
    for (const inv of (await get("/api/v1/invoices", key).expect(200)).body.data.invoices as {
      lines: Line[];
      total: string;
    }[]) {
      expectExact(inv.lines);
      expect(inv.lines.reduce((x, l) => x + cents(l.amount), 0)).toBe(cents(inv.total));
    }
  });

  it("labels recorded without a per-price breakdown split into at most two exact lines", () => {
    const split = labelLines({ labels: 3, label_amount_cents: 1655, inbound: 0, withdrawals: 0 });
    expect(split.map((l) => [l.quantity, l.unit_amount, l.amount])).toEqual([
      [1, "5.51", "5.51"],
      [2, "5.52", "11.04"],
    ]);
    const mixed = labelLines({
      labels: 4,
      label_amount_cents: 2207,
      label_amounts: { "552": 1 },
      inbound: 0,
      withdrawals: 0,
    });
    expectExact(mixed);
    expect(mixed.reduce((x, l) => x + l.quantity, 0)).toBe(4);
    expect(mixed.reduce((x, l) => x + cents(l.amount), 0)).toBe(2207);
    expect(
      labelLines({ labels: 2, label_amount_cents: 1100, inbound: 0, withdrawals: 0 }).map((l) => [
        l.quantity,
        l.unit_amount,
      ]),
    ).toEqual([[2, "5.50"]]);
  });
});

describe("exceptions, SLA and service credits", () => {
  it("the operator raises an exception; the tenant lists and gets it", async () => {
    const [id] = await shippable(api, tenant);
    const e = await api
      .post("/_emulator/warehouse/exceptions")
      .send({ kind: "damaged", unique_id: id, message: "corner crease" })
      .expect(201);
    const list = await get("/api/v1/exceptions?status=OPEN").expect(200);
    expect(list.body.data.exceptions[0]).toMatchObject({
      exception_id: e.body.data.exception_id,
      kind: "damaged",
      unique_id: id,
      status: "OPEN",
    });
    await api.post(`/_emulator/warehouse/exceptions/${e.body.data.exception_id}/resolve`).expect(200);
    expect((await get(`/api/v1/exceptions/${e.body.data.exception_id}`).expect(200)).body.data.status).toBe("RESOLVED");
    expectError(await api.post("/_emulator/warehouse/exceptions").send({ kind: "alien" }), 400, "invalid_value");
    expectError(
      await api.post("/_emulator/warehouse/exceptions").send({ kind: "missing", unique_id: "CARD-NOPE" }),
      404,
      "not_found",
    );
    expectWarehouseError(await get("/api/v1/exceptions?status=MAYBE"), 400, "invalid_status");
  });

  it("SLA metrics count on-time and late orders; a late order's service credit is approved, a second is 409 with data", async () => {
    const [a, b] = await shippable(api, tenant, 2);
    const onTime = await placeOrder(emu, api, tenant, [a]);
    await api.post(`/_emulator/warehouse/orders/${onTime.order_id}/ship`).expect(200);
    const late = await placeOrder(emu, api, tenant, [b]);
    await emu.clock.advance(4 * 24 * 3600_000);
    const sla = await get("/api/v1/sla?month=2026-01").expect(200);
    // (the order placed by the billing test above is late too: it never shipped)
    expect(sla.body.data).toMatchObject({
      month: "2026-01",
      orders_shipped: 1,
      shipped_on_time: 1,
      target_on_time_rate: "0.9900",
    });
    expect(sla.body.data.late_order_ids).toContain(late.order_id);
    expect(sla.body.data.late_order_ids).not.toContain(onTime.order_id);
    expectWarehouseError(await get("/api/v1/sla?month=jan"), 400, "invalid_month");

    const sc = await post("/api/v1/service-credits", { order_id: late.order_id, reason: "missed SLA" }).expect(201);
    expect(sc.body.data).toMatchObject({ status: "APPROVED", order_id: late.order_id, amount: expect.any(Number) });
    const dup = await post("/api/v1/service-credits", { order_id: late.order_id, reason: "again" }).expect(409);
    expectWarehouseError(dup, 409, "service_credit_exists");
    expect(dup.body.data.service_credit_id).toBe(sc.body.data.service_credit_id);
    const review = await post("/api/v1/service-credits", { order_id: onTime.order_id, reason: "slow" }).expect(201);
    expect(review.body.data.status).toBe("UNDER_REVIEW");
    expectWarehouseError(await post("/api/v1/service-credits", { reason: "" }), 400, "invalid_reason");
    expectWarehouseError(
      await post("/api/v1/service-credits", { reason: "x", order_id: "1" }),
      400,
      "invalid_order_id",
    );
    expectWarehouseError(await post("/api/v1/service-credits", { reason: "x", amount: 1.5 }), 400, "invalid_amount");
    expectWarehouseError(await post("/api/v1/service-credits", { reason: "x", order_id: 1 }), 404, "not_found");
    expectWarehouseError(
      await post("/api/v1/service-credits", { reason: "x" }, emu.key("tenant-readonly")),
      403,
      "Insufficient permissions",
    );
    expect((await get("/api/v1/service-credits").expect(200)).body.data.service_credits).toHaveLength(2);
  });
});

describe("a service credit never pays back what was not billed", () => {
  const cents = (usd: string) => Math.round(Number(usd) * 100);
  /** A late one-card order of a fresh tenant (label bought, SLA missed); its key and label cost in cents. */
  async function lateOrder(account: string) {
    const key = await newKey(api, { kind: "tenant", account_id: account });
    const [id] = await shippable(api, key);
    const order = await placeOrder(emu, api, key, [id!]);
    await emu.clock.advance(4 * 24 * 3600_000);
    return { key, order, label: cents(order.amount as string) };
  }
  /** What the month's invoice bills for labels, voids included (cents). */
  async function labelsBilled(account: string) {
    const closed = await api.post("/_emulator/warehouse/billing/close").send({ account_id: account }).expect(201);
    const lines = closed.body.data.lines as { kind: string; amount: string }[];
    return lines.filter((l) => l.kind === "label").reduce((x, l) => x + cents(l.amount), 0);
  }
  const paidBack = (credit: { status: string; amount: number | null }) =>
    credit.status === "APPROVED" ? (credit.amount ?? 0) : 0;

  it("cancel (label voided) then credit: nothing billed, so the credit is not approved at once", async () => {
    const { key, order, label } = await lateOrder("late-cancel-first");
    expect(label).toBeGreaterThan(0);
    await post(`/api/v1/orders/${order.order_id}/cancel`, {}, key).expect(200);
    const sc = await post("/api/v1/service-credits", { order_id: order.order_id, reason: "late" }, key).expect(201);
    expect(sc.body.data.status).toBe("UNDER_REVIEW");
    expect(sc.body.data.decision).toContain("not billed");
    const billed = await labelsBilled("late-cancel-first");
    expect(billed).toBe(0);
    expect(paidBack(sc.body.data)).toBeLessThanOrEqual(billed);
  });

  it("credit then cancel: the void pays back only what the credit has not", async () => {
    const { key, order, label } = await lateOrder("late-credit-first");
    const sc = await post("/api/v1/service-credits", { order_id: order.order_id, reason: "late" }, key).expect(201);
    expect(sc.body.data).toMatchObject({ status: "APPROVED", amount: label });
    await post(`/api/v1/orders/${order.order_id}/cancel`, {}, key).expect(200);
    const billed = await labelsBilled("late-credit-first");
    // the tenant pays the label once and gets it back once: billed − credited = 0
    expect(billed - paidBack(sc.body.data)).toBe(0);
  });

  it("a partial credit then cancel: the void pays back the rest of the label", async () => {
    const { key, order, label } = await lateOrder("late-partial-credit");
    const sc = await post("/api/v1/service-credits", { order_id: order.order_id, reason: "late", amount: 100 }, key);
    expect(sc.body.data).toMatchObject({ status: "APPROVED", amount: 100 });
    await post(`/api/v1/orders/${order.order_id}/cancel`, {}, key).expect(200);
    const billed = await labelsBilled("late-partial-credit");
    expect(billed).toBe(100);
    expect(billed - paidBack(sc.body.data)).toBe(0);
    expect(label).toBeGreaterThan(100);
  });
});

describe("activity log and integration status", () => {
  it("the activity log records the tenant's and the operator's actions, newest first", async () => {
    const res = await get("/api/v1/activity?limit=100").expect(200);
    const kinds = res.body.data.activity.map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        "order.quoted",
        "order.committed",
        "order.label_purchased",
        "billing.month_closed",
        "exception.opened",
      ]),
    );
    const ids = res.body.data.activity.map((a: { activity_id: number }) => a.activity_id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    expect(
      (await get("/api/v1/activity?kind=order.shipped")).body.data.activity.every(
        (a: { kind: string }) => a.kind === "order.shipped",
      ),
    ).toBe(true);
  });

  it("every warehouse 500 opens an integration issue, without internals in the body", async () => {
    expect((await get("/api/v1/integration-status").expect(200)).body.data).toMatchObject({
      status: "ok",
      open_issues: 0,
      issues: [],
    });
    const state = emu.services.store.state.areas.warehouse as { tenants: Record<string, { orders: unknown }> };
    const saved = state.tenants.northwind.orders;
    state.tenants.northwind.orders = null as unknown as object;
    const quiet = console.error;
    console.error = () => {};
    try {
      const res = await get("/api/v1/orders").expect(500);
      expect(res.body).toEqual({
        success: false,
        message: expect.any(String),
        error: "internal_error",
        code: "internal_error",
      });
    } finally {
      console.error = quiet;
      state.tenants.northwind.orders = saved;
    }
    const status = (await get("/api/v1/integration-status").expect(200)).body.data;
    expect(status).toMatchObject({
      status: "degraded",
      open_issues: 1,
      issues: [{ kind: "internal_error", method: "GET", path: "/api/v1/orders", status: "OPEN" }],
    });
    expectWarehouseError(await get("/api/v1/integration-status", emu.key("demo")), 403, "Insufficient permissions");
  });
});
