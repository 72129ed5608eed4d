import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator } from "../helpers.ts";
import { US_ADDRESS, shippable, sweep, useTenant } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let tenant: string;
const { post } = useTenant((ctx) => ({ emu, api, tenant } = ctx));

describe("withdrawals", () => {
  it("request (201), list, get; the operator completes it and the cards leave the vault", async () => {
    const ids = await shippable(api, tenant, 2);
    const res = await post("/api/v1/withdrawals", {
      unique_ids: ids,
      method: "pickup",
      notes: "collect Friday",
    }).expect(201);
    expect(res.body.data).toMatchObject({ status: "REQUESTED", unique_ids: ids, method: "pickup" });
    const id = res.body.data.withdrawal_id;
    expect(
      (await api.get(`/api/v1/withdrawals/${id}`).set("X-API-Key", tenant).expect(200)).body.data.withdrawal_id,
    ).toBe(id);
    const listed = await api.get("/api/v1/withdrawals?status=REQUESTED").set("X-API-Key", tenant).expect(200);
    expect(listed.body.data.withdrawals.map((w: { withdrawal_id: number }) => w.withdrawal_id)).toContain(id);
    // reserved cards cannot be shipped or withdrawn twice
    expectWarehouseError(
      await post("/api/v1/shipping-quote", { unique_ids: [ids[0]], address: US_ADDRESS }),
      409,
      "not_eligible",
    );
    const twice = await post("/api/v1/withdrawals", { unique_ids: [ids[0]] }).expect(409);
    expectWarehouseError(twice, 409, "not_eligible");
    expect(twice.body.data.cards[0]).toMatchObject({
      unique_id: ids[0],
      status: "RESERVED",
      held_by: `withdrawal:${id}`,
    });

    const done = await api.post(`/_emulator/warehouse/withdrawals/${id}/complete`).expect(200);
    expect(done.body.data.status).toBe("COMPLETED");
    expect((await sweep(api, tenant, "all")).some((c) => ids.includes(c.unique_id))).toBe(false);
    expect((await api.get(`/api/v1/cards/${ids[0]}`).set("X-API-Key", tenant)).body.data.location).toBe("EXTERNAL");
    expectError(await api.post(`/_emulator/warehouse/withdrawals/${id}/complete`), 409, "invalid_status");
    expectWarehouseError(await api.get("/api/v1/withdrawals/424242").set("X-API-Key", tenant), 404, "not_found");
  });

  it("replays an idempotency_key with the original record and the same 201; another body is 409 idempotency_mismatch", async () => {
    const [id] = await shippable(api, tenant);
    const a = await post("/api/v1/withdrawals", { unique_ids: [id], idempotency_key: "wd-1" }).expect(201);
    const b = await post("/api/v1/withdrawals", { unique_ids: [id], idempotency_key: "wd-1" }).expect(201);
    expect(b.body.data).toEqual(a.body.data);
    const [other] = await shippable(api, tenant);
    expectWarehouseError(
      await post("/api/v1/withdrawals", { unique_ids: [other], idempotency_key: "wd-1" }),
      409,
      "idempotency_mismatch",
    );
    expectWarehouseError(
      await post("/api/v1/withdrawals", { unique_ids: [other], idempotency_key: "k".repeat(129) }),
      400,
      "invalid_idempotency_key",
    );
    // the header works too
    const h1 = await api
      .post("/api/v1/withdrawals")
      .set("X-API-Key", tenant)
      .set("Idempotency-Key", "wd-h")
      .send({ unique_ids: [other] })
      .expect(201);
    const h2 = await api
      .post("/api/v1/withdrawals")
      .set("X-API-Key", tenant)
      .set("Idempotency-Key", "wd-h")
      .send({ unique_ids: [other] })
      .expect(201);
    expect(h2.body.data.withdrawal_id).toBe(h1.body.data.withdrawal_id);
  });

  it("validates method, address and ids; needs write:withdrawal to request and read:inventory to read", async () => {
    const [id] = await shippable(api, tenant);
    expectWarehouseError(
      await post("/api/v1/withdrawals", { unique_ids: [id], method: "drone" }),
      400,
      "invalid_method",
    );
    expectWarehouseError(
      await post("/api/v1/withdrawals", { unique_ids: [id], method: "ship" }),
      400,
      "missing_shipping_address",
    );
    expectWarehouseError(await post("/api/v1/withdrawals", { unique_ids: "x" }), 400, "invalid_unique_ids");
    expectWarehouseError(await post("/api/v1/withdrawals", { unique_ids: ["CARD-NOPE"] }), 404, "not_found");
    const ro = emu.key("tenant-readonly");
    expectWarehouseError(await post("/api/v1/withdrawals", { unique_ids: [id] }, ro), 403, "Insufficient permissions");
    await api.get("/api/v1/withdrawals").set("X-API-Key", ro).expect(200);
    const noRead = await newKey(api, { kind: "tenant", scopes: ["write:withdrawal"] });
    expectWarehouseError(
      await api.get("/api/v1/withdrawals").set("X-API-Key", noRead),
      403,
      "Insufficient permissions",
    );
    expectWarehouseError(
      await api.get("/api/v1/withdrawals").set("X-API-Key", emu.key("demo")),
      403,
      "Insufficient permissions",
    );
  });
});

describe("card transfers", () => {
  it("transfers custody to another tenant; the unique_id stays the same", async () => {
    const receiver = await newKey(api, { kind: "tenant", account_id: "globex" });
    await api.get("/api/v1/info").set("X-API-Key", receiver).expect(200);
    const [id] = await shippable(api, tenant);
    const res = await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex", note: "sold" }).expect(201);
    expect(res.body.data).toMatchObject({
      unique_id: id,
      from_account: "northwind",
      to_account: "globex",
      status: "COMPLETED",
    });
    expectWarehouseError(await api.get(`/api/v1/cards/${id}`).set("X-API-Key", tenant), 404, "not_found");
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", receiver).expect(200)).body.data.unique_id).toBe(id);
    const mine = await api.get("/api/v1/card-transfers").set("X-API-Key", tenant).expect(200);
    expect(mine.body.data.transfers[0].transfer_id).toBe(res.body.data.transfer_id);
    await api.get(`/api/v1/card-transfers/${res.body.data.transfer_id}`).set("X-API-Key", receiver).expect(200);
    expectWarehouseError(await api.get("/api/v1/card-transfers/99").set("X-API-Key", tenant), 404, "not_found");
  });

  it("rejects unknown recipients, self-transfers, busy cards and keys without write:transfer", async () => {
    const [id] = await shippable(api, tenant);
    expectWarehouseError(await post(`/api/v1/cards/${id}/transfer`, {}), 400, "invalid_recipient");
    expectWarehouseError(
      await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "northwind" }),
      400,
      "invalid_recipient",
    );
    expectWarehouseError(
      await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "nobody" }),
      404,
      "recipient_not_found",
    );
    expectWarehouseError(await post("/api/v1/cards/CARD-NOPE/transfer", { to_account_id: "globex" }), 404, "not_found");
    expectWarehouseError(
      await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex" }, emu.key("tenant-readonly")),
      403,
      "Insufficient permissions",
    );
    await post("/api/v1/withdrawals", { unique_ids: [id] }).expect(201);
    expectWarehouseError(await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex" }), 409, "not_eligible");
  });
});

describe("card transfers: idempotency_key", () => {
  it("the same key and body replays the original transfer; the same key on another card or body is 409 idempotency_mismatch", async () => {
    await newKey(api, { kind: "tenant", account_id: "globex" });
    const [a, b] = await shippable(api, tenant, 2);
    const first = await post(`/api/v1/cards/${a}/transfer`, {
      to_account_id: "globex",
      idempotency_key: "tr-1",
    }).expect(201);
    const replay = await post(`/api/v1/cards/${a}/transfer`, {
      to_account_id: "globex",
      idempotency_key: "tr-1",
    }).expect(201);
    expect(replay.body.data).toEqual(first.body.data);
    const other = await post(`/api/v1/cards/${b}/transfer`, {
      to_account_id: "globex",
      idempotency_key: "tr-1",
    }).expect(409);
    expectWarehouseError(other, 409, "idempotency_mismatch");
    expectWarehouseError(
      await post(`/api/v1/cards/${a}/transfer`, {
        to_account_id: "globex",
        note: "changed",
        idempotency_key: "tr-1",
      }),
      409,
      "idempotency_mismatch",
    );
    // the header key behaves the same
    const h = await api
      .post(`/api/v1/cards/${b}/transfer`)
      .set("X-API-Key", tenant)
      .set("Idempotency-Key", "tr-h")
      .send({ to_account_id: "globex" })
      .expect(201);
    expect(h.body.data.unique_id).toBe(b);
    const [c] = await shippable(api, tenant);
    expectWarehouseError(
      await api
        .post(`/api/v1/cards/${c}/transfer`)
        .set("X-API-Key", tenant)
        .set("Idempotency-Key", "tr-h")
        .send({ to_account_id: "globex" }),
      409,
      "idempotency_mismatch",
    );
    // one transfer per key: card c never moved
    const mine = (await api.get("/api/v1/card-transfers?limit=100").set("X-API-Key", tenant).expect(200)).body.data
      .transfers as { unique_id: string }[];
    expect(mine.filter((t) => t.unique_id === a)).toHaveLength(1);
    expect(mine.some((t) => t.unique_id === c)).toBe(false);
    expect((await api.get(`/api/v1/cards/${c}`).set("X-API-Key", tenant).expect(200)).body.data.unique_id).toBe(c);
  });

  it("an attachment key reused on another shipment is 409 idempotency_mismatch, not a second attachment", async () => {
    const announce = async () =>
      (await post("/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100 }).expect(201))
        .body.data.inbound_shipment_id as number;
    const [s1, s2] = [await announce(), await announce()];
    const att = { filename: "list.pdf", content_type: "application/pdf", idempotency_key: "att-x" };
    await post(`/api/v1/inbound-shipments/${s1}/attachments`, att).expect(201);
    expectWarehouseError(await post(`/api/v1/inbound-shipments/${s2}/attachments`, att), 409, "idempotency_mismatch");
    expect(
      (await api.get(`/api/v1/inbound-shipments/${s2}/attachments`).set("X-API-Key", tenant).expect(200)).body.data
        .attachments,
    ).toEqual([]);
  });
});

describe("unique_ids across tenants whose account ids share a prefix", () => {
  it("tenant-a and tenant-b share the CARD-TEN prefix but no id; a transfer between them never replaces a card", async () => {
    const ka = await newKey(api, { kind: "tenant", account_id: "tenant-a" });
    const kb = await newKey(api, { kind: "tenant", account_id: "tenant-b" });
    const ida = (await sweep(api, ka, "all")).map((c) => c.unique_id);
    const idb = (await sweep(api, kb, "all")).map((c) => c.unique_id);
    expect(ida).toHaveLength(54);
    expect(idb).toHaveLength(54);
    expect(ida.every((id) => id.startsWith("CARD-TEN")) && idb.every((id) => id.startsWith("CARD-TEN"))).toBe(true);
    expect(ida.filter((id) => idb.includes(id))).toEqual([]);

    // cards received later are unique across tenants too
    const received: string[] = [];
    for (const key of [ka, kb]) {
      const s = (
        await post("/api/v1/inbound-shipments", { expected_card_count: 5, declared_value_per_card: 100 }, key).expect(
          201,
        )
      ).body.data.inbound_shipment_id;
      received.push(
        ...(await api.post(`/_emulator/warehouse/inbound-shipments/${s}/receive`).send({}).expect(200)).body.data
          .inbound_shipment.received_unique_ids,
      );
    }
    expect(new Set([...ida, ...idb, ...received]).size).toBe(54 * 2 + 10);

    const [moving] = await shippable(api, ka);
    await post(`/api/v1/cards/${moving}/transfer`, { to_account_id: "tenant-b" }, ka).expect(201);
    const after = (await sweep(api, kb, "all")).map((c) => c.unique_id);
    expect(after).toHaveLength(54 + 5 + 1);
    expect(idb.every((id) => after.includes(id))).toBe(true);
  });

  it("a transfer onto an id the recipient already holds is refused (409), never an overwrite", async () => {
    const kc = await newKey(api, { kind: "tenant", account_id: "tenant-c" });
    await api.get("/api/v1/info").set("X-API-Key", kc).expect(200); // builds tenant-c's warehouse
    const [id] = await shippable(api, tenant);
    // Only a hand-edited state can hold one id twice; plant a copy in tenant-c's inventory.
    const wh = emu.services.store.state.areas.warehouse as {
      tenants: Record<string, { cards: Record<string, { unique_id: string; received_at: string }> }>;
    };
    // Marked by its received_at (a value no combination rule of the card ties to the others).
    const planted = {
      ...structuredClone(wh.tenants.northwind.cards[id]),
      received_at: "2000-01-01T00:00:00.000Z",
    };
    wh.tenants["tenant-c"].cards[id] = planted;
    const res = await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "tenant-c" }).expect(409);
    expectWarehouseError(res, 409, "not_eligible");
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", kc).expect(200)).body.data.received_at).toBe(
      "2000-01-01T00:00:00.000Z",
    );
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", tenant).expect(200)).body.data.unique_id).toBe(id);
  });
});

describe("sites", () => {
  it("lists and gets the warehouse sites (read:inventory)", async () => {
    const res = await api.get("/api/v1/sites").set("X-API-Key", tenant).expect(200);
    expect(res.body.data.sites.map((s: { site_id: string }) => s.site_id)).toEqual(["DAL1", "CHI1"]);
    expect((await api.get("/api/v1/sites/DAL1").set("X-API-Key", tenant).expect(200)).body.data.timezone).toBe(
      "America/Chicago",
    );
    expectWarehouseError(await api.get("/api/v1/sites/NYC9").set("X-API-Key", tenant), 404, "not_found");
    const noRead = await newKey(api, { kind: "tenant", scopes: ["write:order"] });
    expectWarehouseError(await api.get("/api/v1/sites").set("X-API-Key", noRead), 403, "Insufficient permissions");
  });
});
