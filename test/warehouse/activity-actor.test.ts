import { describe, it, expect } from "vitest";
import { newKey, type Api, type Emulator, useEmulator } from "../helpers.ts";
import { quote, shippable } from "./helpers.ts";
import { tenantOf } from "../../emulator/areas/warehouse/state.ts";
import { expectWarehouseError } from "../../conformance/assert.ts";

// The activity log names who acted without handing out keys: a read-only key
// of the tenant reads it, and a key is a credential.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

interface Row {
  kind: string;
  actor: string;
  actor_label: string | null;
}

describe("activity log actors", () => {
  it("a read-only key sees the writer masked (prefix and label), and cannot act with what it read", async () => {
    const writer = await newKey(api, { kind: "tenant", label: "ops writer" });
    const reader = await newKey(api, { kind: "tenant", scopes: ["read:inventory"], label: "auditor" });
    const [id] = await shippable(api, writer);
    const q = await quote(api, writer, [id]);
    const rows = (await api.get("/api/v1/activity?kind=order.quoted&limit=100").set("X-API-Key", reader).expect(200))
      .body.data.activity as Row[];
    const mine = rows.find((r) => r.actor_label === "ops writer");
    expect(mine).toMatchObject({ kind: "order.quoted", actor: `${writer.slice(0, 11)}…`, actor_label: "ops writer" });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(writer);
    // Whatever the reader took from the log is not a key.
    const stolen = await api
      .post("/api/v1/withdrawals")
      .set("X-API-Key", mine!.actor.replace("…", ""))
      .send({ unique_ids: [id], method: "pickup" })
      .expect(401);
    expect(stolen.body.code).toBe("API key not found or inactive");
    // Operator rows name the operator, with no label.
    await api
      .post("/api/v1/orders")
      .set("X-API-Key", writer)
      .send({ order_id: q.order_id, rate_id: q.rates[0].rate_id })
      .expect(202);
    await emu.clock.advance(3_000);
    const bought = (await api.get("/api/v1/activity?kind=order.label_purchased").set("X-API-Key", reader).expect(200))
      .body.data.activity as Row[];
    expect(bought[0]).toMatchObject({ actor: "carrier", actor_label: null });
  });

  it("a key stored in full by a state saved before masking is shown masked", async () => {
    const key = emu.key("tenant");
    tenantOf(emu.services, "northwind").activity.push({
      activity_id: 999_999,
      at: emu.clock.nowIso(),
      kind: "legacy.row",
      actor: key,
      summary: "old",
      refs: {},
    });
    const rows = (
      await api.get("/api/v1/activity?kind=legacy.row").set("X-API-Key", emu.key("tenant-readonly")).expect(200)
    ).body.data.activity as Row[];
    expect(rows).toEqual([expect.objectContaining({ actor: `${key.slice(0, 11)}…`, actor_label: null })]);
    expectWarehouseError(
      await api.get("/api/v1/activity?kind=legacy.row").set("X-API-Key", emu.key("demo")),
      403,
      "Insufficient permissions",
    );
  });
});
