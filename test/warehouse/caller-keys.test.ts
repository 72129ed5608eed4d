import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator } from "../helpers.ts";
import { US_ADDRESS, placeOrder, shippable, useTenant } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

// Caller-supplied keys and ids, everywhere in the warehouse: names of
// JavaScript built-ins are ordinary ids that name nothing (never an inherited
// member, never a write onto Object.prototype), and ids over 255 characters in
// a body or query are 400 identifier_too_long like path ids.

let emu: Emulator;
let api: Api;
let tenant: string;
const { post, get } = useTenant((ctx) => ({ emu, api, tenant } = ctx));

const BUILTINS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

/** Own properties of the built-in prototypes and constructors a polluting write would land on. */
const builtinShape = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  fn: Object.getOwnPropertyNames(Function.prototype).sort(),
  ctor: Object.getOwnPropertyNames(Object).sort(),
});

async function expectStatusCode(
  res: Promise<{ status: number; body: Record<string, unknown> }>,
  status: number,
  code: string,
  what: string,
) {
  expectWarehouseError(await res, status, code, what);
}

describe("JavaScript built-in names are ordinary ids", () => {
  it("name no card, invoice, order, shipment, withdrawal, transfer, report, exception or site; nothing leaks onto the prototypes, even after reset", async () => {
    const before = builtinShape();
    const [mine] = await shippable(api, tenant);
    await newKey(api, { kind: "tenant", account_id: "globex" });
    for (const n of BUILTINS) {
      const p = encodeURIComponent(n);
      await expectStatusCode(get(`/api/v1/cards/${p}`), 404, "not_found", `GET /cards/${n}`);
      await expectStatusCode(get(`/api/v1/invoices/${p}`), 404, "not_found", `GET /invoices/${n}`);
      for (const path of [
        "orders",
        "withdrawals",
        "inbound-shipments",
        "card-transfers",
        "reports",
        "exceptions",
        "sites",
      ])
        await expectStatusCode(get(`/api/v1/${path}/${p}`), 404, "not_found", `GET /${path}/${n}`);
      await expectStatusCode(
        get(`/api/v1/inbound-shipments/${p}/attachments`),
        404,
        "not_found",
        `attachments of ${n}`,
      );
      await expectStatusCode(
        post("/api/v1/shipping-quote", { unique_ids: [n], address: US_ADDRESS }),
        404,
        "not_found",
        `quote ${n}`,
      );
      await expectStatusCode(post("/api/v1/withdrawals", { unique_ids: [n] }), 404, "not_found", `withdraw ${n}`);
      await expectStatusCode(
        post(`/api/v1/cards/${p}/transfer`, { to_account_id: "globex" }),
        404,
        "not_found",
        `transfer ${n}`,
      );
      await expectStatusCode(
        post(`/api/v1/cards/${mine}/transfer`, { to_account_id: n }),
        404,
        "recipient_not_found",
        `transfer to ${n}`,
      );
      await expectStatusCode(
        post("/api/v1/declared-values", { unique_id: n, amount: 100 }),
        404,
        "not_found",
        `declare ${n}`,
      );
      expect((await get(`/api/v1/declared-values?unique_id=${p}`).expect(200)).body.data.declared_values).toEqual([]);
      await expectStatusCode(post(`/api/v1/orders/${p}/cancel`, {}), 404, "not_found", `cancel order ${n}`);
      await expectStatusCode(
        post(`/api/v1/inbound-shipments/${p}/cancel`, {}),
        404,
        "not_found",
        `cancel shipment ${n}`,
      );

      // operator actions
      for (const action of ["confirm-identity", "price"])
        expectError(
          await api.post(`/_emulator/warehouse/cards/${p}/${action}`).send({ market_price: "1.00" }),
          404,
          "not_found",
          `${action} ${n}`,
        );
      for (const path of [
        `orders/${p}/ship`,
        `orders/${p}/scan-back`,
        `inbound-shipments/${p}/receive`,
        `withdrawals/${p}/complete`,
        `exceptions/${p}/resolve`,
      ])
        expectError(await api.post(`/_emulator/warehouse/${path}`).send({}), 404, "not_found", path);
      expectError(
        await api.post("/_emulator/warehouse/exceptions").send({ kind: "other", unique_id: n }),
        404,
        "not_found",
        `exception for ${n}`,
      );
    }
    // the card named in the transfers above never moved
    expect((await get(`/api/v1/cards/${mine}`).expect(200)).body.data.unique_id).toBe(mine);
    expect(({} as { constructor: unknown }).constructor).toBe(Object);
    expect(builtinShape()).toEqual(before);
    await api.post("/_emulator/reset").expect(200);
    expect(builtinShape()).toEqual(before);
    tenant = emu.key("tenant");
  });

  it("an account named like a built-in gets its own warehouse (control actions, keys, transfers), with no write onto Object.prototype", async () => {
    const before = builtinShape();
    for (const n of ["constructor", "__proto__", "toString"]) {
      const armed = await api
        .post("/_emulator/warehouse/labels/fail-next")
        .send({ account_id: n, times: 2 })
        .expect(200);
      expect(armed.body.data).toEqual({ account_id: n, fail_next_labels: 2 });
      const key = await newKey(api, { kind: "tenant", account_id: n });
      const info = await get("/api/v1/info", key).expect(200);
      expect(info.body.data.tenant.account_id).toBe(n);
      const inv = await get("/api/v1/inventory?type=all", key).expect(200);
      expect(inv.body.data.total).toBe(54);
      const [id] = await shippable(api, tenant);
      const tr = await post(`/api/v1/cards/${id}/transfer`, { to_account_id: n }).expect(201);
      expect(tr.body.data).toMatchObject({ unique_id: id, to_account: n });
      expect((await get(`/api/v1/cards/${id}`, key).expect(200)).body.data.unique_id).toBe(id);
      expect((await get("/api/v1/inventory?type=all", key)).body.data.total).toBe(55);
      const closed = await api.post("/_emulator/warehouse/billing/close").send({ account_id: n }).expect(201);
      expect((await get(`/api/v1/invoices/${closed.body.data.invoice_id}`, key).expect(200)).body.data.invoice_id).toBe(
        closed.body.data.invoice_id,
      );
    }
    // a snapshot/restore round trip keeps them as ordinary accounts
    const snap = await emu.snapshot();
    await emu.restore(snap);
    const wh = emu.services.store.state.areas.warehouse as { tenants: Record<string, { account_id: string }> };
    for (const n of ["constructor", "__proto__", "toString"])
      expect(Object.hasOwn(wh.tenants, n) && wh.tenants[n].account_id).toBe(n);
    expect(Object.getPrototypeOf(wh.tenants)).toBe(Object.prototype);
    expect(({} as { constructor: unknown }).constructor).toBe(Object);
    expect(builtinShape()).toEqual(before);
  });

  it("an order over the fixture cards still works next to those names (no stray holder match)", async () => {
    const [id] = await shippable(api, tenant);
    const o = await placeOrder(emu, api, tenant, [id]);
    expect(o.status).toBe("LABEL_PURCHASED");
  });
});

describe("ids over 255 characters in bodies and queries → 400 identifier_too_long", () => {
  const long = `CARD-${"X".repeat(251)}`; // 256 characters
  const edge = `CARD-${"X".repeat(250)}`; // 255: an ordinary (unknown) id

  it("every warehouse route that takes an id from its body or query", async () => {
    expect(long).toHaveLength(256);
    const [mine] = await shippable(api, tenant);
    const shipment = (
      await post("/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100 }).expect(201)
    ).body.data.inbound_shipment_id;
    const cases: [string, Promise<{ status: number; body: Record<string, unknown> }>][] = [
      ["quote unique_ids", post("/api/v1/shipping-quote", { unique_ids: [mine, long], address: US_ADDRESS })],
      ["withdrawal unique_ids", post("/api/v1/withdrawals", { unique_ids: [long] })],
      ["transfer to_account_id", post(`/api/v1/cards/${mine}/transfer`, { to_account_id: long })],
      ["transfer to_tenant", post(`/api/v1/cards/${mine}/transfer`, { to_tenant: long })],
      ["declared value unique_id", post("/api/v1/declared-values", { unique_id: long, amount: 100 })],
      ["declared values ?unique_id", get(`/api/v1/declared-values?unique_id=${long}`)],
      ["order rate_id", post("/api/v1/orders", { order_id: 100001, rate_id: long })],
      [
        "inbound site_id",
        post("/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100, site_id: long }),
      ],
      [
        "inbound update site_id",
        api.patch(`/api/v1/inbound-shipments/${shipment}`).set("X-API-Key", tenant).send({ site_id: long }),
      ],
    ];
    for (const [what, res] of cases) await expectStatusCode(res, 400, "identifier_too_long", what);
    // 255 characters is an id like any other: looked up, not found
    await expectStatusCode(
      post("/api/v1/shipping-quote", { unique_ids: [edge], address: US_ADDRESS }),
      404,
      "not_found",
      "255-character id",
    );
    await expectStatusCode(
      post(`/api/v1/cards/${mine}/transfer`, { to_account_id: edge.toLowerCase() }),
      404,
      "recipient_not_found",
      "255-character recipient",
    );
    await expectStatusCode(
      post("/api/v1/declared-values", { unique_id: edge, amount: 100 }),
      404,
      "not_found",
      "255-character declared value id",
    );
  });

  it("operator actions check their ids the same way", async () => {
    const [id] = await shippable(api, tenant);
    const o = await placeOrder(emu, api, tenant, [id]);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/ship`).expect(200);
    await api.post(`/_emulator/warehouse/orders/${o.order_id}/return`).expect(200);
    const cases: [string, string, Record<string, unknown>][] = [
      ["scan-back unique_ids", `/_emulator/warehouse/orders/${o.order_id}/scan-back`, { unique_ids: [long] }],
      ["exception unique_id", "/_emulator/warehouse/exceptions", { kind: "other", unique_id: long }],
      ["fail-next account_id", "/_emulator/warehouse/labels/fail-next", { account_id: long }],
      ["billing close account_id", "/_emulator/warehouse/billing/close", { account_id: long }],
      ["card path id", `/_emulator/warehouse/cards/${long}/price`, { market_price: "1.00" }],
    ];
    for (const [what, path, body] of cases) {
      const res = await api.post(path).send(body);
      expect(res.status, what).toBe(400);
      expect(res.body.error, what).toBe("identifier_too_long");
    }
    const pending = (await get("/api/v1/inventory?type=all&limit=100")).body.data.cards.find(
      (c: { identity: { status: string } }) => c.identity.status === "unconfirmed",
    );
    const res = await api
      .post(`/_emulator/warehouse/cards/${pending.unique_id}/confirm-identity`)
      .send({ card_id: "x".repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("identifier_too_long");
  });
});
