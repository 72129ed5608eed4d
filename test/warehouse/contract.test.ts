import { describe, expect, it } from "vitest";
import { OPERATIONS, WAREHOUSE_OPERATIONS, WarehouseCard } from "../../contract/index.ts";
import { type Api, useEmulator } from "../helpers.ts";
import { sweep } from "./helpers.ts";

// The warehouse's contract (contract/warehouse/) against the interface: the
// card shape it judges any target by, the idempotency header of the writes
// that honour it, and the operation ids.

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { ...ctx, tenant: ctx.emu.key("tenant") }));

type Param = { name: string; in: string; required?: boolean };
type Doc = { paths: Record<string, Record<string, { operationId: string; parameters?: Param[] }>> };

const HEADER_WRITES = [
  "warehouse.withdrawals.create",
  "warehouse.transfers.create",
  "warehouse.inboundShipments.attachments.create",
  "warehouse.declaredValues.create",
  "warehouse.serviceCredits.create",
];

describe("warehouse contract", () => {
  it("every operation is warehouse.<resource>.<verb>-named, unique across the contract", () => {
    const ids = OPERATIONS.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(WAREHOUSE_OPERATIONS.length).toBe(39);
    expect(WAREHOUSE_OPERATIONS.filter((op) => !op.id.startsWith("warehouse.")).map((op) => op.id)).toEqual([]);
  });

  it("the writes that honour the Idempotency-Key header declare it (optional); announce keys on submission_key only", async () => {
    const doc = (await api.get("/_emulator/openapi.json")).body as Doc;
    const declared: string[] = [];
    for (const methods of Object.values(doc.paths))
      for (const op of Object.values(methods)) {
        const header = op.parameters?.find((p) => p.in === "header" && p.name === "Idempotency-Key");
        if (op.operationId?.startsWith("warehouse.") && header) {
          expect(header.required).toBe(false);
          declared.push(op.operationId);
        }
      }
    expect(declared.sort()).toEqual([...HEADER_WRITES].sort());
  });

  it("the header makes a service-credit request idempotent: a replay answers the original, one record", async () => {
    const send = () =>
      api
        .post("/api/v1/service-credits")
        .set("X-API-Key", tenant)
        .set("Idempotency-Key", "sc-1")
        .send({ reason: "late parcel" });
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body.data).toEqual(first.body.data);
    const list = await api.get("/api/v1/service-credits").set("X-API-Key", tenant).expect(200);
    expect(list.body.data.total).toBe(1);
    const other = await api
      .post("/api/v1/service-credits")
      .set("X-API-Key", tenant)
      .set("Idempotency-Key", "sc-1")
      .send({ reason: "another" })
      .expect(409);
    expect(other.body.code).toBe("idempotency_mismatch");
  });

  it("WarehouseCard: identity and pricing are optional objects; unique_id is CARD-… of at most 22 characters", async () => {
    const cards = await sweep(api, tenant);
    expect(cards.length).toBeGreaterThan(0);
    // Every card this service answers has both objects and a conforming id.
    for (const card of cards) {
      expect(WarehouseCard.safeParse(card).success).toBe(true);
      expect(card.unique_id.startsWith("CARD-") && card.unique_id.length <= 22).toBe(true);
    }
    const { identity: _i, pricing: _p, ...bare } = cards[0]!;
    expect(WarehouseCard.safeParse(bare).success).toBe(true);
    expect(WarehouseCard.safeParse({ ...cards[0]!, unique_id: "NOR-ABC" }).success).toBe(false);
    expect(WarehouseCard.safeParse({ ...cards[0]!, unique_id: `CARD-${"X".repeat(18)}` }).success).toBe(false);
  });
});
