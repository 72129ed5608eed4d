import { describe, expect, it } from "vitest";
import { type Api, useEmulator } from "../helpers.ts";
import { shippable } from "./helpers.ts";

// A replay is the same request whatever order the client's JSON encoder
// writes the keys in: fingerprints are compared as canonical JSON.

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { ...ctx, tenant: ctx.emu.key("tenant") }));

const postRaw = (path: string, text: string) =>
  api.post(path).set("X-API-Key", tenant).set("Content-Type", "application/json").send(text);

describe("idempotency fingerprints are canonical JSON", () => {
  it("inbound shipment: the same body with keys reordered (nested too) replays with created:false", async () => {
    const a = await postRaw(
      "/api/v1/inbound-shipments",
      '{"submission_key":"canon-1","expected_card_count":3,"declared_value_per_card":2500,"carrier":"ups","tracking_number":"1ZC","metadata":{"a":1,"b":2}}',
    );
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const b = await postRaw(
      "/api/v1/inbound-shipments",
      '{"metadata":{"b":2,"a":1},"tracking_number":"1ZC","carrier":"ups","declared_value_per_card":2500,"expected_card_count":3,"submission_key":"canon-1"}',
    );
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toMatchObject({ inbound_shipment_id: a.body.data.inbound_shipment_id, created: false });
    const c = await postRaw(
      "/api/v1/inbound-shipments",
      '{"submission_key":"canon-1","expected_card_count":4,"declared_value_per_card":2500,"carrier":"ups","tracking_number":"1ZC"}',
    );
    expect(c.status).toBe(409);
    expect(c.body.code).toBe("idempotency_mismatch");
  });

  it("withdrawal: keys reordered → the original 201 replayed, one withdrawal", async () => {
    const [id] = await shippable(api, tenant, 1);
    const a = await postRaw(
      "/api/v1/withdrawals",
      JSON.stringify({ idempotency_key: "w-canon", unique_ids: [id], method: "pickup", notes: "n" }),
    );
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const b = await postRaw(
      "/api/v1/withdrawals",
      JSON.stringify({ notes: "n", method: "pickup", unique_ids: [id], idempotency_key: "w-canon" }),
    );
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body.data).toEqual(a.body.data);
  });
});
