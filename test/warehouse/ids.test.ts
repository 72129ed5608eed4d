import { describe, it, expect } from "vitest";
import { type Api, useEmulator } from "../helpers.ts";
import { shippable } from "./helpers.ts";
import { expectError, expectWarehouseError } from "../../conformance/assert.ts";

// Integer ids in paths are read by one parser (pipeline/identifiers.ts intId),
// the one the mystery area uses: the canonical digits the API hands out, so
// "0042" names no record, on the API and on the control plane alike.

let api: Api;
let tenant: string;
useEmulator((ctx) => ({ api, tenant } = { api: ctx.api, tenant: ctx.emu.key("tenant") }));

describe("integer path ids", () => {
  it("only the canonical form names a record: leading zeros, 0 and signs are 404 not_found", async () => {
    const ids = await shippable(api, tenant, 1);
    const w = (await api.post("/api/v1/withdrawals").set("X-API-Key", tenant).send({ unique_ids: ids }).expect(201))
      .body.data;
    expect(
      (await api.get(`/api/v1/withdrawals/${w.withdrawal_id}`).set("X-API-Key", tenant).expect(200)).body.data
        .withdrawal_id,
    ).toBe(w.withdrawal_id);
    for (const raw of [`0${w.withdrawal_id}`, "0", "-1", `${w.withdrawal_id}.0`, "1".repeat(17)]) {
      const res = await api.get(`/api/v1/withdrawals/${raw}`).set("X-API-Key", tenant).expect(404);
      expectWarehouseError(res, 404, "not_found");
    }
    expectError(await api.post(`/_emulator/warehouse/withdrawals/0${w.withdrawal_id}/complete`), 404, "not_found");
    expect(
      (await api.post(`/_emulator/warehouse/withdrawals/${w.withdrawal_id}/complete`).expect(200)).body.data.status,
    ).toBe("COMPLETED");
  });
});
