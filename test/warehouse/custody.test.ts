import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startEmulator, newKey, type Api, type Emulator } from "../helpers.ts";
import { US_ADDRESS, expectWarehouseError, shippable, sweep } from "./helpers.ts";

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let tenant: string;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator());
  tenant = emu.key("tenant");
});
afterAll(() => close());

const post = (path: string, body: unknown, key = tenant) => api.post(path).set("X-API-Key", key).send(body as object);

describe("withdrawals", () => {
  it("request (201), list, get; the operator completes it and the cards leave the vault", async () => {
    const ids = await shippable(api, tenant, 2);
    const res = await post("/api/v1/withdrawals", { unique_ids: ids, method: "pickup", notes: "collect Friday" }).expect(201);
    expect(res.body.data).toMatchObject({ status: "REQUESTED", unique_ids: ids, method: "pickup" });
    const id = res.body.data.withdrawal_id;
    expect((await api.get(`/api/v1/withdrawals/${id}`).set("X-API-Key", tenant).expect(200)).body.data.withdrawal_id).toBe(id);
    const listed = await api.get("/api/v1/withdrawals?status=REQUESTED").set("X-API-Key", tenant).expect(200);
    expect(listed.body.data.withdrawals.map((w: { withdrawal_id: number }) => w.withdrawal_id)).toContain(id);
    // reserved cards cannot be shipped or withdrawn twice
    expectWarehouseError((await post("/api/v1/shipping-quote", { unique_ids: [ids[0]], address: US_ADDRESS }).expect(409)).body, "not_eligible");
    const twice = await post("/api/v1/withdrawals", { unique_ids: [ids[0]] }).expect(409);
    expectWarehouseError(twice.body, "not_eligible");
    expect(twice.body.data.cards[0]).toMatchObject({ unique_id: ids[0], status: "RESERVED", held_by: `withdrawal:${id}` });

    const done = await api.post(`/_emulator/warehouse/withdrawals/${id}/complete`).expect(200);
    expect(done.body.data.status).toBe("COMPLETED");
    expect((await sweep(api, tenant, "all")).some((c) => ids.includes(c.unique_id))).toBe(false);
    expect((await api.get(`/api/v1/cards/${ids[0]}`).set("X-API-Key", tenant)).body.data.location).toBe("EXTERNAL");
    await api.post(`/_emulator/warehouse/withdrawals/${id}/complete`).expect(409);
    await api.get("/api/v1/withdrawals/424242").set("X-API-Key", tenant).expect(404);
  });

  it("replays an idempotency_key with the original record and the same 201; another body is 409 idempotency_mismatch", async () => {
    const [id] = await shippable(api, tenant);
    const a = await post("/api/v1/withdrawals", { unique_ids: [id], idempotency_key: "wd-1" }).expect(201);
    const b = await post("/api/v1/withdrawals", { unique_ids: [id], idempotency_key: "wd-1" }).expect(201);
    expect(b.body.data).toEqual(a.body.data);
    const [other] = await shippable(api, tenant);
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: [other], idempotency_key: "wd-1" }).expect(409)).body, "idempotency_mismatch");
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: [other], idempotency_key: "k".repeat(129) }).expect(400)).body, "invalid_idempotency_key");
    // the header works too
    const h1 = await api.post("/api/v1/withdrawals").set("X-API-Key", tenant).set("Idempotency-Key", "wd-h").send({ unique_ids: [other] }).expect(201);
    const h2 = await api.post("/api/v1/withdrawals").set("X-API-Key", tenant).set("Idempotency-Key", "wd-h").send({ unique_ids: [other] }).expect(201);
    expect(h2.body.data.withdrawal_id).toBe(h1.body.data.withdrawal_id);
  });

  it("validates method, address and ids; needs write:withdrawal to request and read:inventory to read", async () => {
    const [id] = await shippable(api, tenant);
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: [id], method: "drone" }).expect(400)).body, "invalid_method");
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: [id], method: "ship" }).expect(400)).body, "missing_shipping_address");
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: "x" }).expect(400)).body, "invalid_unique_ids");
    expectWarehouseError((await post("/api/v1/withdrawals", { unique_ids: ["CARD-NOPE"] }).expect(404)).body, "not_found");
    const ro = emu.key("tenant-readonly");
    await post("/api/v1/withdrawals", { unique_ids: [id] }, ro).expect(403);
    await api.get("/api/v1/withdrawals").set("X-API-Key", ro).expect(200);
    const noRead = await newKey(api, { kind: "tenant", scopes: ["write:withdrawal"] });
    expectWarehouseError((await api.get("/api/v1/withdrawals").set("X-API-Key", noRead).expect(403)).body, "Insufficient permissions");
    await api.get("/api/v1/withdrawals").set("X-API-Key", emu.key("demo")).expect(403);
  });
});

describe("card transfers", () => {
  it("transfers custody to another tenant; the unique_id stays the same", async () => {
    const receiver = await newKey(api, { kind: "tenant", account_id: "globex" });
    await api.get("/api/v1/info").set("X-API-Key", receiver).expect(200);
    const [id] = await shippable(api, tenant);
    const res = await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex", note: "sold" }).expect(201);
    expect(res.body.data).toMatchObject({ unique_id: id, from_account: "northwind", to_account: "globex", status: "COMPLETED" });
    await api.get(`/api/v1/cards/${id}`).set("X-API-Key", tenant).expect(404);
    expect((await api.get(`/api/v1/cards/${id}`).set("X-API-Key", receiver).expect(200)).body.data.unique_id).toBe(id);
    const mine = await api.get("/api/v1/card-transfers").set("X-API-Key", tenant).expect(200);
    expect(mine.body.data.transfers[0].transfer_id).toBe(res.body.data.transfer_id);
    await api.get(`/api/v1/card-transfers/${res.body.data.transfer_id}`).set("X-API-Key", receiver).expect(200);
    await api.get("/api/v1/card-transfers/99").set("X-API-Key", tenant).expect(404);
  });

  it("rejects unknown recipients, self-transfers, busy cards and keys without write:transfer", async () => {
    const [id] = await shippable(api, tenant);
    expectWarehouseError((await post(`/api/v1/cards/${id}/transfer`, {}).expect(400)).body, "invalid_recipient");
    expectWarehouseError((await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "northwind" }).expect(400)).body, "invalid_recipient");
    expectWarehouseError((await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "nobody" }).expect(404)).body, "recipient_not_found");
    expectWarehouseError((await post("/api/v1/cards/CARD-NOPE/transfer", { to_account_id: "globex" }).expect(404)).body, "not_found");
    await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex" }, emu.key("tenant-readonly")).expect(403);
    await post("/api/v1/withdrawals", { unique_ids: [id] }).expect(201);
    expectWarehouseError((await post(`/api/v1/cards/${id}/transfer`, { to_account_id: "globex" }).expect(409)).body, "not_eligible");
  });
});

describe("sites", () => {
  it("lists and gets the warehouse sites (read:inventory)", async () => {
    const res = await api.get("/api/v1/sites").set("X-API-Key", tenant).expect(200);
    expect(res.body.data.sites.map((s: { site_id: string }) => s.site_id)).toEqual(["DAL1", "CHI1"]);
    expect((await api.get("/api/v1/sites/DAL1").set("X-API-Key", tenant).expect(200)).body.data.timezone).toBe("America/Chicago");
    await api.get("/api/v1/sites/NYC9").set("X-API-Key", tenant).expect(404);
    const noRead = await newKey(api, { kind: "tenant", scopes: ["write:order"] });
    await api.get("/api/v1/sites").set("X-API-Key", noRead).expect(403);
  });
});
