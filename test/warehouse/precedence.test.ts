import { describe, it } from "vitest";
import { newKey, type Api, useEmulator } from "../helpers.ts";
import { shippable } from "./helpers.ts";
import { expectWarehouseError } from "../../conformance/assert.ts";

// Routes read the request and rules check state; a request wrong in two ways
// still gets the error it always got (the shipment's or the recipient's before
// the body's, where the routes have always answered so).

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { api: ctx.api, tenant: ctx.emu.key("tenant") }));

const send = (method: "post" | "patch" | "delete", path: string, body: unknown = {}) =>
  api[method](path)
    .set("X-API-Key", tenant)
    .send(body as object);

describe("which error wins", () => {
  it("card transfer: the recipient and the card are checked before the note", async () => {
    await newKey(api, { kind: "tenant", account_id: "globex" });
    const [id] = await shippable(api, tenant);
    expectWarehouseError(
      await send("post", `/api/v1/cards/${id}/transfer`, { to_account_id: "northwind", note: 5 }),
      400,
      "invalid_recipient",
    );
    expectWarehouseError(
      await send("post", `/api/v1/cards/${id}/transfer`, { to_account_id: "nobody", note: 5 }),
      404,
      "recipient_not_found",
    );
    await send("post", "/api/v1/withdrawals", { unique_ids: [id] }).expect(201);
    expectWarehouseError(
      await send("post", `/api/v1/cards/${id}/transfer`, { to_account_id: "globex", note: 5 }),
      409,
      "not_eligible",
    );
    const [free] = await shippable(api, tenant);
    expectWarehouseError(
      await send("post", `/api/v1/cards/${free}/transfer`, { to_account_id: "globex", note: 5 }),
      400,
      "invalid_note",
    );
  });

  it("inbound shipment: its 404 or 409 comes before the body's 400", async () => {
    const s = (
      await send("post", "/api/v1/inbound-shipments", { expected_card_count: 1, declared_value_per_card: 100 }).expect(
        201,
      )
    ).body.data;
    const path = `/api/v1/inbound-shipments/${s.inbound_shipment_id}`;
    expectWarehouseError(await send("patch", path, { carrier: 5 }), 400, "invalid_carrier");
    await send("post", `${path}/cancel`).expect(200);
    expectWarehouseError(await send("patch", path, { carrier: 5 }), 409, "invalid_status");
    expectWarehouseError(await send("patch", path, {}), 409, "invalid_status");
    expectWarehouseError(await send("post", `${path}/attachments`, { filename: 5 }), 409, "invalid_status");
    expectWarehouseError(await send("delete", `${path}/attachments/x`), 409, "invalid_status");
    expectWarehouseError(await send("patch", "/api/v1/inbound-shipments/999999", { carrier: 5 }), 404, "not_found");
    expectWarehouseError(await send("post", "/api/v1/inbound-shipments/999999/attachments", {}), 404, "not_found");
  });
});
