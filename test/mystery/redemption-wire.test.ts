import { describe, expect, it } from "vitest";
import { buyRevealed, sendCalls, user, useMystery, type Ctx } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// The redemption wire as the official SDK types it (contract/mystery/redemption.ts):
// the status enum has no AWAITING_KYC (KYC pending is PREPARED with kyc.status
// PENDING), submit answers {redemption_id, status, burn_tx_hash}, rows say null
// where nothing is recorded yet, and the OpenAPI document declares what the SDK
// sends (null address fields, the Idempotency-Key header).

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const M = "/api/v1/mystery/redemption";
const HOUR = 60 * 60 * 1000;
const US = {
  name: "Ada Lovelace",
  street1: "1 Main St",
  street2: null,
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
  phone: null,
  email: null,
};
const SDK_STATUSES = ["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED", "FAILED", "CANCELLED", "EXPIRED"];

async function card(key: string, i = 0) {
  const u = user(ctx, i);
  const p = await buyRevealed(ctx, key, u, 1);
  return {
    u,
    purchase: p,
    token: p.items.find((x: { item_type: string }) => x.item_type === "CARD").token_id as string,
  };
}
const prepare = (key: string, body: Record<string, unknown>, idem: string) =>
  ctx.api.post(`${M}/prepare`).set("X-API-Key", key).set("Idempotency-Key", idem).send(body);
const submit = (key: string, body: Record<string, unknown>) =>
  ctx.api.post(`${M}/submit`).set("X-API-Key", key).send(body);
const rows = async (key: string, id: string | number) =>
  (await ctx.api.get(`${M}/${id}`).set("X-API-Key", key).expect(200)).body.data.redemptions;

describe("redemption answers as the SDK types them", () => {
  it("prepare takes null optional address fields; prepare, submit and the rows carry exactly the SDK's fields (+ kyc)", async () => {
    const { u, token } = await card(ctx.demo);
    const prep = (await prepare(ctx.demo, { token_id: token, shipping_address: US }, "w-1").expect(201)).body.data;
    expect(Object.keys(prep).sort()).toEqual(
      [
        "redemption_id",
        "purchase_id",
        "status",
        "item_type",
        "token_id",
        "kyc",
        "shipping_quote",
        "shipping_payer",
        "shipping_payment",
        "expires_at",
        "unsigned",
      ].sort(),
    );
    expect(prep).toMatchObject({
      status: "PREPARED",
      kyc: { status: "NOT_REQUIRED", kyc_url: null },
      shipping_payer: "end_user",
    });
    // Nothing burned or queued yet: null, not an invented "NONE".
    const [before] = await rows(ctx.demo, token);
    expect(before.burn).toEqual({ db_status: null, is_burned: false, burn_type: 1, burn_type_label: "REDEEM_CARD" });
    expect(before.queue).toEqual({ status: null });
    expect(before).not.toHaveProperty("shipping_address");

    const burn = await sendCalls(ctx, u, prep.unsigned.calls.slice(0, 1));
    const sub = (
      await submit(ctx.demo, { redemption_id: prep.redemption_id, tx_hash: burn.transactionHash }).expect(202)
    ).body.data;
    expect(sub).toEqual({
      redemption_id: prep.redemption_id,
      status: "BURN_SUBMITTED",
      burn_tx_hash: burn.transactionHash,
    });
    const [after] = await rows(ctx.demo, token);
    expect(after).toMatchObject({
      status: "BURN_SUBMITTED",
      burn_tx_hash: burn.transactionHash,
      burn: { db_status: "PENDING_REDEEM" },
      queue: { status: "QUEUED" },
    });
  });

  it("KYC required: PREPARED with kyc PENDING, a kyc_url and no calls; never a status outside the SDK's; approval gives the calls", async () => {
    const kyc = ctx.emu.key("kyc");
    const { token } = await card(kyc, 1);
    const gated = (await prepare(kyc, { token_id: token, shipping_address: US }, "k-1").expect(201)).body.data;
    expect(gated).toMatchObject({
      status: "PREPARED",
      kyc: { status: "PENDING" },
      unsigned: null,
      shipping_payment: null,
    });
    expect(gated.kyc.kyc_url).toMatch(/^https:\/\//);
    expectError(
      await submit(kyc, { redemption_id: gated.redemption_id, tx_hash: `0x${"11".repeat(32)}` }),
      409,
      "kyc_required",
    );
    // The lifecycle filter is the SDK's: AWAITING_KYC is no status.
    expectError(
      await ctx.api.get("/api/v1/mystery/redemptions?status=awaiting_kyc").set("X-API-Key", kyc),
      400,
      "invalid_status",
    );
    const listed = (await ctx.api.get("/api/v1/mystery/redemptions?status=prepared").set("X-API-Key", kyc).expect(200))
      .body.data.redemptions;
    expect(
      listed.map((r: { redemption_id: number; kyc: { status: string } }) => [r.redemption_id, r.kyc.status]),
    ).toEqual([[gated.redemption_id, "PENDING"]]);
    const overview = (await ctx.api.get("/_emulator/mystery").expect(200)).body.data.redemptions;
    expect(overview.find((r: { redemption_id: number }) => r.redemption_id === gated.redemption_id)).toMatchObject({
      status: "PREPARED",
      kyc_status: "PENDING",
    });

    await ctx.api
      .post(`/_emulator/mystery/redemptions/${gated.redemption_id}/kyc`)
      .send({ decision: "approve" })
      .expect(200);
    // Approved once: deciding again is 409 (nothing waits for KYC).
    expectError(
      await ctx.api.post(`/_emulator/mystery/redemptions/${gated.redemption_id}/kyc`).send({ decision: "approve" }),
      409,
      "invalid_status",
    );
    const ready = (await prepare(kyc, { token_id: token, shipping_address: US }, "k-1").expect(201)).body.data;
    expect(ready).toMatchObject({
      redemption_id: gated.redemption_id,
      status: "PREPARED",
      kyc: { status: "APPROVED", kyc_url: null },
    });
    expect(ready.unsigned.calls.map((c: { kind: string }) => c.kind)).toEqual([
      "burn",
      "erc20-approve",
      "shipping-payment",
    ]);
    for (const r of await rows(kyc, token)) expect(SDK_STATUSES).toContain(r.status);
  });

  it("a redemption that expired with its shipping paid but no burn submitted: submitting the payment's hash is 409 invalid_status (never a burn_tx_hash of null)", async () => {
    const { u, token } = await card(ctx.demo, 2);
    const prep = (await prepare(ctx.demo, { token_id: token, shipping_address: US }, "x-1").expect(201)).body.data;
    const payment = await sendCalls(ctx, u, prep.unsigned.calls);
    await ctx.emu.clock.advance(25 * HOUR);
    const [row] = await rows(ctx.demo, token);
    expect(row).toMatchObject({ status: "EXPIRED", burn_tx_hash: null });
    expectError(
      await submit(ctx.demo, { redemption_id: prep.redemption_id, tx_hash: payment.transactionHash }),
      409,
      "invalid_status",
    );
  });
});

describe("the OpenAPI document says what the SDK sends", () => {
  type Schema = { properties?: Record<string, Schema>; type?: string | string[]; anyOf?: Schema[]; enum?: string[] };
  const nullable = (s: Schema | undefined) =>
    !!s && ((Array.isArray(s.type) && s.type.includes("null")) || !!s.anyOf?.some((x) => x.type === "null"));

  it("prepare declares Idempotency-Key and null optional address fields; the status enum is the SDK's", async () => {
    const doc = (await ctx.api.get("/_emulator/openapi.json").expect(200)).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ name: string; in: string; schema: Schema }>;
            requestBody: { content: Record<string, { schema: Schema }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const op = doc.paths["/api/v1/mystery/redemption/prepare"]!.post!;
    expect(op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")).toBe(true);
    const body = op.requestBody.content["application/json"]!.schema;
    const address = body.properties!.shipping_address!;
    const fields = address.properties ?? address.anyOf?.find((x) => x.properties)?.properties;
    for (const f of ["street2", "state", "phone", "email"]) expect(nullable(fields![f]), f).toBe(true);
    const list = doc.paths["/api/v1/mystery/redemptions"]!.get!;
    const status = list.parameters!.find((p) => p.name === "status")!.schema;
    expect(status.enum).toEqual(SDK_STATUSES);
  });
});
