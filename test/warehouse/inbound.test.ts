import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator } from "../helpers.ts";
import { sweep, useTenant } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let tenant: string;
const { post } = useTenant((ctx) => ({ emu, api, tenant } = ctx));

const announce = (body: Record<string, unknown> = {}) =>
  post("/api/v1/inbound-shipments", {
    expected_card_count: 3,
    carrier: "ups",
    tracking_number: "1ZIN",
    declared_value_per_card: 2500,
    ...body,
  });

describe("announce (idempotent on submission_key)", () => {
  it("201 with created:true, then a replay is 200 with created:false and the same shipment", async () => {
    const a = await announce({ submission_key: "batch-001", declared_value_per_card: 2500 }).expect(201);
    expect(a.body.data).toMatchObject({
      status: "ANNOUNCED",
      created: true,
      site_id: "DAL1",
      expected_card_count: 3,
      submission_key: "batch-001",
    });
    const b = await announce({ submission_key: "batch-001", declared_value_per_card: 2500 }).expect(200);
    expect(b.body.data).toMatchObject({ inbound_shipment_id: a.body.data.inbound_shipment_id, created: false });
    expectWarehouseError(
      await announce({ submission_key: "batch-001", expected_card_count: 9 }),
      409,
      "idempotency_mismatch",
    );
    expectWarehouseError(await announce({ submission_key: "s".repeat(129) }), 400, "invalid_idempotency_key");
    await announce({ submission_key: "s".repeat(128) }).expect(201);
    const list = await api.get("/api/v1/inbound-shipments").set("X-API-Key", tenant).expect(200);
    expect(
      list.body.data.inbound_shipments.filter((s: { submission_key: string }) => s.submission_key === "batch-001"),
    ).toHaveLength(1);
  });

  it("validates the body", async () => {
    expectWarehouseError(await post("/api/v1/inbound-shipments", {}), 400, "invalid_card_count");
    expectWarehouseError(await announce({ expected_card_count: 0 }), 400, "invalid_card_count");
    expectWarehouseError(await announce({ site_id: "NYC9" }), 400, "invalid_site");
    expectWarehouseError(await announce({ declared_value_per_card: 12.5 }), 400, "invalid_amount");
    // pending cards carry the tenant's declared value, so announcing needs one
    expectWarehouseError(await announce({ declared_value_per_card: undefined }), 400, "invalid_amount");
    expectWarehouseError(await announce({ declared_value_per_card: null }), 400, "invalid_amount");
    expectWarehouseError(await announce({ submission_key: 7 }), 400, "invalid_idempotency_key");
    expectWarehouseError(
      await api.post("/api/v1/inbound-shipments").set("X-API-Key", tenant).send([1]),
      400,
      "invalid_json",
    );
  });

  it("scopes: write:inbound_shipment to change, read:inventory to read", async () => {
    const ro = emu.key("tenant-readonly");
    expectWarehouseError(await announce().set("X-API-Key", ro), 403, "Insufficient permissions");
    await api.get("/api/v1/inbound-shipments").set("X-API-Key", ro).expect(200);
    const writeOnly = await newKey(api, { kind: "tenant", scopes: ["write:inbound_shipment"] });
    const s = await announce().set("X-API-Key", writeOnly).expect(201);
    expectWarehouseError(
      await api.get(`/api/v1/inbound-shipments/${s.body.data.inbound_shipment_id}`).set("X-API-Key", writeOnly),
      403,
      "Insufficient permissions",
    );
    expectWarehouseError(
      await api
        .get(`/api/v1/inbound-shipments/${s.body.data.inbound_shipment_id}/attachments`)
        .set("X-API-Key", writeOnly),
      403,
      "Insufficient permissions",
    );
  });
});

describe("update, cancel, attachments", () => {
  it("updates an announced shipment; cancels it; later changes are 409 invalid_status with data", async () => {
    const s = (await announce().expect(201)).body.data;
    const id = s.inbound_shipment_id;
    const up = await api
      .patch(`/api/v1/inbound-shipments/${id}`)
      .set("X-API-Key", tenant)
      .send({ tracking_number: "1ZNEW", expected_card_count: 5 })
      .expect(200);
    expect(up.body.data).toMatchObject({ tracking_number: "1ZNEW", expected_card_count: 5 });
    expectWarehouseError(
      await api.patch(`/api/v1/inbound-shipments/${id}`).set("X-API-Key", tenant).send({}),
      400,
      "invalid_update",
    );
    expectWarehouseError(
      await api
        .patch(`/api/v1/inbound-shipments/${id}`)
        .set("X-API-Key", tenant)
        .send({ declared_value_per_card: null }),
      400,
      "invalid_amount",
    );
    const cancelled = await post(`/api/v1/inbound-shipments/${id}/cancel`, {}).expect(200);
    expect(cancelled.body.data.status).toBe("CANCELLED");
    const again = await post(`/api/v1/inbound-shipments/${id}/cancel`, {}).expect(409);
    expectWarehouseError(again, 409, "invalid_status");
    expect(again.body.data).toMatchObject({ inbound_shipment_id: id, status: "CANCELLED" });
    expectWarehouseError(
      await api.patch(`/api/v1/inbound-shipments/${id}`).set("X-API-Key", tenant).send({ notes: "x" }),
      409,
      "invalid_status",
    );
    expectWarehouseError(await api.get("/api/v1/inbound-shipments/999999").set("X-API-Key", tenant), 404, "not_found");
    expect(
      (await api.get("/api/v1/inbound-shipments?status=CANCELLED").set("X-API-Key", tenant).expect(200)).body.data
        .inbound_shipments[0].inbound_shipment_id,
    ).toBe(id);
  });

  it("adds, lists and removes attachments (idempotent add)", async () => {
    const id = (await announce().expect(201)).body.data.inbound_shipment_id;
    const path = `/api/v1/inbound-shipments/${id}/attachments`;
    const a = await post(path, {
      filename: "packing-list.pdf",
      content_type: "application/pdf",
      size_bytes: 1024,
      idempotency_key: "att-1",
    }).expect(201);
    const replay = await post(path, {
      filename: "packing-list.pdf",
      content_type: "application/pdf",
      size_bytes: 1024,
      idempotency_key: "att-1",
    }).expect(201);
    expect(replay.body.data).toEqual(a.body.data);
    expectWarehouseError(
      await post(path, { filename: "x.exe", content_type: "application/x-msdownload" }),
      400,
      "invalid_attachment",
    );
    expectWarehouseError(await post(path, { content_type: "image/png" }), 400, "invalid_attachment");
    const listed = await api.get(path).set("X-API-Key", tenant).expect(200);
    expect(listed.body.data.attachments).toHaveLength(1);
    await api.delete(`${path}/${a.body.data.attachment_id}`).set("X-API-Key", tenant).expect(200);
    expectWarehouseError(
      await api.delete(`${path}/${a.body.data.attachment_id}`).set("X-API-Key", tenant),
      404,
      "not_found",
    );
    expect((await api.get(path).set("X-API-Key", tenant)).body.data.attachments).toEqual([]);
    expectWarehouseError(
      await api.delete(`${path}/1`).set("X-API-Key", emu.key("tenant-readonly")),
      403,
      "Insufficient permissions",
    );
  });
});

describe("receive → identity → price (operator)", () => {
  it("received cards appear pending identity with the tenant's declared value, then publish and price", async () => {
    const id = (await announce({ expected_card_count: 2, declared_value_per_card: 1500 }).expect(201)).body.data
      .inbound_shipment_id;
    const before = (await api.get("/api/v1/inventory?type=all").set("X-API-Key", tenant)).body.data.pending_identity;
    const rec = await api.post(`/_emulator/warehouse/inbound-shipments/${id}/receive`).send({}).expect(200);
    expect(rec.body.data.inbound_shipment.status).toBe("RECEIVED");
    const [uid] = rec.body.data.inbound_shipment.received_unique_ids as string[];
    const card = (await api.get(`/api/v1/cards/${uid}`).set("X-API-Key", tenant).expect(200)).body.data;
    expect(card).toMatchObject({
      identity: { status: "unconfirmed" },
      pricing: { status: "unverified", market_price: null },
      insured_price: null,
      declared_value: { amount: 1500, source: "tenant" },
      location: "OFFCHAIN",
    });
    expect((await api.get("/api/v1/inventory?type=all").set("X-API-Key", tenant)).body.data.pending_identity).toBe(
      before + 2,
    );
    expectWarehouseError(await post(`/api/v1/inbound-shipments/${id}/cancel`, {}), 409, "invalid_status");
    expectError(await api.post(`/_emulator/warehouse/inbound-shipments/${id}/receive`).send({}), 409, "invalid_status");

    expectError(
      await api.post(`/_emulator/warehouse/cards/${uid}/price`).send({ market_price: "10.00" }),
      409,
      "invalid_status",
    );
    const confirmed = await api
      .post(`/_emulator/warehouse/cards/${uid}/confirm-identity`)
      .send({ card_id: "base1-4" })
      .expect(200);
    expect(confirmed.body.data).toMatchObject({
      identity: { status: "confirmed", card_id: "base1-4" },
      pricing: { status: "unpriced", market_price: null },
      declared_value: null,
    });
    const priced = await api
      .post(`/_emulator/warehouse/cards/${uid}/price`)
      .send({ market_price: "412.50" })
      .expect(200);
    expect(priced.body.data).toMatchObject({
      pricing: { status: "priced", market_price: "412.50" },
      insured_price: "453.75",
      declared_value: { amount: 41250, source: "service" },
    });
    expectError(
      await api.post(`/_emulator/warehouse/cards/${uid}/price`).send({ market_price: "abc" }),
      400,
      "invalid_value",
    );
    expectError(await api.post(`/_emulator/warehouse/cards/${uid}/confirm-identity`).send({}), 409, "invalid_status");
    expectError(await api.post("/_emulator/warehouse/cards/CARD-NOPE/confirm-identity").send({}), 404, "not_found");
    expect((await sweep(api, tenant)).some((c) => c.unique_id === uid)).toBe(true);
  });
});
