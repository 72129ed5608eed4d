import { describe, it, expect } from "vitest";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";
import { startReceiver } from "../webhooks/receiver.ts";
import { expectError } from "../../conformance/assert.ts";

// Control routes that take a key accept a fixture key's name (`demo`, `revenue-share`, …) as well as its value,
// and a fixture key's former name (`tier` for `revenue-share`) as the same key.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

describe("fixture keys by name in the control plane", () => {
  it('POST /_emulator/events {key: "demo"} delivers to demo\'s webhook, as with the value', async () => {
    const rx = await startReceiver();
    try {
      await api.post("/api/v1/webhooks").set("X-API-Key", emu.key("demo")).send({ url: rx.url }).expect(201);
      const byName = (await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key: "demo" }).expect(201))
        .body.data;
      expect(byName.account_ids).toEqual(["acme"]);
      expect(byName.deliveries).toMatchObject([{ status: "DELIVERED", attempts: 1 }]);
      expect(rx.received.map((r) => r.headers["x-mystery-event"])).toEqual(["purchase.fulfilled"]);
      const byValue = (
        await api
          .post("/_emulator/events")
          .send({ type: "purchase.fulfilled", key: emu.key("demo") })
          .expect(201)
      ).body.data;
      expect(byValue.account_ids).toEqual(["acme"]);
      expect(rx.received).toHaveLength(2);
    } finally {
      await rx.close();
    }
  });

  it("GET and POST /_emulator/credits/:key take the name: the same pools as by value", async () => {
    const before = (await api.get(`/_emulator/credits/${emu.key("revenue-share")}`).expect(200)).body.data;
    expect((await api.get("/_emulator/credits/tier").expect(200)).body.data).toEqual(before);
    const after = (await api.post("/_emulator/credits/tier").send({ credits: 25 }).expect(200)).body.data;
    expect(after.purchased_credits).toBe(before.purchased_credits + 25);
    expect(
      (await api.get(`/_emulator/credits/${emu.key("revenue-share")}`).expect(200)).body.data.purchased_credits,
    ).toBe(before.purchased_credits + 25);
  });

  it("per-partner switches and the top-up filter take the name", async () => {
    const kyc = (await api.post("/_emulator/mystery/kyc").send({ key: "revenue-share", required: true }).expect(200))
      .body.data;
    expect(kyc).toEqual({ account_id: "nova", kyc_required: true });
    await api.post("/_emulator/mystery/kyc").send({ key: "revenue-share", required: false }).expect(200);
    expect((await api.get("/_emulator/topups?key=demo").expect(200)).body.data.topups).toEqual([]);
  });

  it("the former name `tier` is the `revenue-share` key: same value, same pools, same account", async () => {
    const value = emu.key("revenue-share");
    expect(emu.key("tier")).toBe(value);
    // the value is still the one derived from the former name, so values kept elsewhere stay valid
    expect(emu.keys.find((k) => k.name === "revenue-share")?.key).toBe(value);
    expect(emu.keys.some((k) => k.name === "tier")).toBe(false);
    const byNew = (await api.get("/_emulator/credits/revenue-share").expect(200)).body.data;
    expect((await api.get("/_emulator/credits/tier").expect(200)).body.data).toEqual(byNew);
    const topped = (await api.post("/_emulator/credits/tier").send({ credits: 7 }).expect(200)).body.data;
    expect(topped.purchased_credits).toBe(byNew.purchased_credits + 7);
    expect((await api.get("/_emulator/credits/revenue-share").expect(200)).body.data.purchased_credits).toBe(
      byNew.purchased_credits + 7,
    );
    const kyc = (await api.post("/_emulator/mystery/kyc").send({ key: "tier", required: true }).expect(200)).body.data;
    expect(kyc).toEqual({ account_id: "nova", kyc_required: true });
    await api.post("/_emulator/mystery/kyc").send({ key: "tier", required: false }).expect(200);
  });

  it("an unknown name is 404 not_found, and changes nothing", async () => {
    expectError(
      await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key: "nobody" }),
      404,
      "not_found",
    );
    expectError(await api.get("/_emulator/credits/nobody"), 404, "not_found");
    expectError(await api.post("/_emulator/credits/nobody").send({ credits: 1 }), 404, "not_found");
    expectError(await api.post("/_emulator/mystery/kyc").send({ key: "nobody", required: true }), 404, "not_found");
    // a name is not a key on the API itself
    expectError(
      await api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", "demo"),
      401,
      "API key not found or inactive",
    );
  });
});
