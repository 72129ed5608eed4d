import { describe, expect, it } from "vitest";
import { usdStablecoinAbi, vrfRequestIdsFromLogs } from "../../chain/index.ts";
import { buyRevealed, relay, sendCalls, useMystery, user, type Ctx } from "../mystery/helpers.ts";
import { sdkFor } from "../sdk.ts";
import { placeOrder, shippable } from "../warehouse/helpers.ts";
import { startReceiver } from "../webhooks/receiver.ts";
import { expectError } from "../../conformance/assert.ts";

// The control plane's read-only operator views (what the dashboard lists) and
// its two dashboard actions, grant credits and resend a delivery: every value
// is compared with what the API or the chain says of the same record.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));
const control = (method: "get" | "post", path: string) => ctx.api[method](`/_emulator${path}`);
const ids = (p: Record<string, unknown>) => (p.items as Array<{ token_id: string }>).map((i) => i.token_id);

describe("GET /_emulator/mystery", () => {
  it("lists every partner's purchases and sell-backs newest first with states and transaction hashes, and the switches", async () => {
    const first = await buyRevealed(ctx, ctx.revenueShare, user(ctx, 2), 1);
    const second = await buyRevealed(ctx, ctx.demo, user(ctx, 1), 1);
    // a sell-back of the first purchase's items
    const u = user(ctx, 2);
    const sell = (path: string, body: Record<string, unknown>) =>
      ctx.api.post(`/api/v1/mystery/sellback/${path}`).set("X-API-Key", ctx.revenueShare).send(body);
    const prep = await sell("prepare", { wallet_address: u.address, token_ids: ids(first) }).expect(200);
    const receipt = await sendCalls(ctx, u, prep.body.data.calls);
    const sold = (await sell("submit", { transaction_hash: receipt.transactionHash }).expect(200)).body.data;

    const view = (await control("get", "/mystery").expect(200)).body.data;
    expect(view.purchases.map((p: { id: number }) => p.id)).toEqual([second.id, first.id]);
    for (const [row, p] of [
      [view.purchases[0], second],
      [view.purchases[1], first],
    ] as const)
      expect(row).toEqual({
        id: p.id,
        account_id: expect.any(String),
        custody: "NON_CUSTODIAL",
        status: "FULFILLED",
        tier_id: 1,
        price_usdc: p.price_usdc,
        external_user_id: null,
        transaction_hash: p.transaction_hash,
        onchain_request_id: p.onchain_request_id,
        items: p.items.length,
        created_at: p.created_at,
      });
    expect(view.sell_backs).toEqual([
      {
        sellback_id: sold.sellback_id,
        account_id: view.purchases[1].account_id,
        seller: sold.seller,
        token_ids: ids(first),
        total_usdc: sold.total_usdc,
        transaction_hash: receipt.transactionHash,
        sold_at: sold.sold_at,
      },
    ]);
    expect(view).toMatchObject({
      relayer: "on",
      shipping_signer: "on",
      warehouse_mode: "auto",
      kyc_required: { vesta: true, acme: false },
    });

    await control("post", "/mystery/relayer").send({ enabled: false }).expect(200);
    expect((await control("get", "/mystery?limit=1").expect(200)).body.data).toMatchObject({
      relayer: "off",
      purchases: [{ id: second.id }],
    });
  });

  it("refuses a limit that is not an integer from 1 to 1000", async () => {
    for (const bad of ["0", "1001", "abc", "1.5"])
      expectError(await control("get", `/mystery?limit=${bad}`), 400, "invalid_value", bad);
  });

  it("shows a custodial purchase as the relayer moves it (RESERVED, then SUBMITTED with its hash)", async () => {
    await control("post", "/mystery/custodial/fund")
      .send({ key: ctx.demo, external_user_id: "ops-1", usdc: "50" })
      .expect(200);
    const made = await ctx.api
      .post("/api/v1/mystery/purchase")
      .set("X-API-Key", ctx.demo)
      .set("Idempotency-Key", "ops-view-1")
      .send({ tier_id: 1, external_user_id: "ops-1" })
      .expect(202);
    let row = (await control("get", "/mystery").expect(200)).body.data.purchases[0];
    expect(row).toMatchObject({
      id: made.body.data.id,
      custody: "CUSTODIAL",
      status: "RESERVED",
      external_user_id: "ops-1",
      transaction_hash: null,
    });
    await relay(ctx);
    row = (await control("get", "/mystery").expect(200)).body.data.purchases[0];
    const api = (
      await ctx.api.get(`/api/v1/mystery/purchase/${made.body.data.id}`).set("X-API-Key", ctx.demo).expect(200)
    ).body.data;
    expect(row).toMatchObject({ status: "SUBMITTED", transaction_hash: api.transaction_hash });
    expect(row.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe("GET /_emulator/instant/purchases", () => {
  it("lists instant purchases of every partner in the wire shape, with the owning account", async () => {
    expect((await control("get", "/instant/purchases").expect(200)).body.data.purchases).toEqual([]);
    const sdk = sdkFor(ctx.emu, ctx.demo).instant;
    const u = user(ctx, 3);
    const prep = await sdk.prepare({ packet_type_id: 1, wallet_address: u.address });
    // The SDK types addresses and calldata as plain strings.
    const receipt = await sendCalls(ctx, u, prep.calls as Array<{ to: `0x${string}`; data: `0x${string}` }>);
    const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
    const bought = await sdk.submit({
      packet_type_id: 1,
      transaction_hash: receipt.transactionHash,
      request_id: String(requestId),
      wallet_address: u.address,
    });
    const { purchases } = (await control("get", "/instant/purchases").expect(200)).body.data;
    expect(purchases).toEqual([{ ...(await sdk.getPurchase(bought.id)), account_id: "acme" }]);
  });
});

describe("GET /_emulator/warehouse", () => {
  it("lists each tenant's orders (wire shape, newest first) and its cards per status", async () => {
    const key = ctx.tenant;
    const [a, b] = await shippable(ctx.api, key, 2);
    const one = await placeOrder(ctx.emu, ctx.api, key, [a!]);
    const two = await placeOrder(ctx.emu, ctx.api, key, [b!]);
    const { tenants } = (await control("get", "/warehouse").expect(200)).body.data;
    const t = tenants.find((x: { account_id: string }) => x.account_id === "northwind");
    const wire = async (id: number) =>
      (await ctx.api.get(`/api/v1/orders/${id}`).set("X-API-Key", key).expect(200)).body.data;
    expect(t.orders).toEqual([await wire(two.order_id), await wire(one.order_id)]);
    const inventory = (
      await ctx.api.get("/api/v1/inventory").query({ limit: 1, type: "all" }).set("X-API-Key", key).expect(200)
    ).body;
    const counted = Object.values(t.cards as Record<string, number>).reduce((x, y) => x + y, 0);
    expect(counted).toBeGreaterThanOrEqual(inventory.pagination?.total ?? 1);
    expect(t.cards.AVAILABLE).toBeGreaterThan(0);
  });
});

describe("chain views", () => {
  it("GET /chain/balances reads each balance from the chain; a faucet shows in it", async () => {
    const chain = ctx.emu.chain!;
    const u = user(ctx, 4);
    const before = (await control("get", "/chain/balances").expect(200)).body.data.accounts;
    const row = before.find((r: { address: string }) => r.address === u.address);
    expect(row).toMatchObject({ kind: "account", label: u.label });
    const onChain = await chain.publicClient.readContract({
      address: chain.addresses.stablecoin,
      abi: usdStablecoinAbi,
      functionName: "balanceOf",
      args: [u.address],
    });
    expect(BigInt(Math.round(Number(row.usdc) * 1e6))).toBe(onChain);
    await control("post", "/chain/faucet").send({ address: u.address, usdc: "12.5", eth: "0" }).expect(200);
    const after = (await control("get", "/chain/balances").expect(200)).body.data.accounts.find(
      (r: { address: string }) => r.address === u.address,
    );
    expect(Number(after.usdc) - Number(row.usdc)).toBeCloseTo(12.5, 6);
    const labels = before.map((r: { label: string }) => r.label);
    for (const name of ["relayer", "treasury", "mysteryPool", "stablecoin", "instantPack"])
      expect(labels).toContain(name);
  });

  it("GET /chain/blocks lists the newest blocks, consecutive, with the transactions just sent", async () => {
    const funded = (
      await control("post", "/chain/faucet")
        .send({ address: user(ctx, 4).address, usdc: "1" })
        .expect(200)
    ).body.data;
    const { blocks } = (await control("get", "/chain/blocks?limit=3").expect(200)).body.data;
    expect(blocks).toHaveLength(3);
    expect(blocks.map((b: { number: string }) => BigInt(b.number))).toEqual(
      [0n, 1n, 2n].map((d) => BigInt(blocks[0].number) - d),
    );
    expect(blocks.flatMap((b: { transactions: string[] }) => b.transactions)).toContain(funded.usdc_tx);
    const head = await ctx.emu.chain!.publicClient.getBlockNumber({ cacheTime: 0 });
    expect(BigInt(blocks[0].number)).toBe(head);
    expectError(await control("get", "/chain/blocks?limit=101"), 400, "invalid_value");
  });
});

describe("POST /_emulator/credits/:key", () => {
  it("grants credits to the purchased pool; calls then spend free credits first", async () => {
    const key = ctx.demo;
    const before = (await control("get", `/credits/${key}`).expect(200)).body.data;
    const granted = (await control("post", `/credits/${key}`).send({ credits: 1234 }).expect(200)).body.data;
    expect(granted).toMatchObject({
      purchased_credits: before.purchased_credits + 1234,
      free_credits: before.free_credits,
      balance: before.balance + 1234,
    });
    await ctx.api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key).expect(200);
    expect((await control("get", `/credits/${key}`).expect(200)).body.data).toMatchObject({
      purchased_credits: granted.purchased_credits,
      free_credits: before.free_credits - 1,
    });
  });

  it("refuses a bad amount (400 invalid_value) and an unknown key (404 not_found), changing nothing", async () => {
    const key = ctx.demo;
    const before = (await control("get", `/credits/${key}`).expect(200)).body.data;
    for (const credits of [0, -5, 1.5, "100", null, 1_000_000_001])
      expectError(await control("post", `/credits/${key}`).send({ credits }), 400, "invalid_value", String(credits));
    expectError(await control("post", "/credits/rip_v1_nope").send({ credits: 5 }), 404, "not_found");
    expect((await control("get", `/credits/${key}`).expect(200)).body.data).toEqual(before);
  });
});

describe("GET /_emulator/keys usage", () => {
  it("counts this month's billed credits and calls per key", async () => {
    const row = async () =>
      (await control("get", "/keys").expect(200)).body.data.keys.find((k: { name?: string }) => k.name === "demo");
    const before = await row();
    await ctx.api.get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", ctx.demo).expect(200);
    expectError(await ctx.api.get("/api/v1/pokemon/cards/nope-0").set("X-API-Key", ctx.demo), 404, "not_found"); // refunded: not billed
    const after = await row();
    expect(after.credits_used_this_month - before.credits_used_this_month).toBe(1);
    expect(after.requests_this_month - before.requests_this_month).toBe(1);
  });
});

describe("POST /_emulator/webhooks/resend", () => {
  it("sends a delivered delivery again: same event id and body, a fresh timestamp, counted as a new attempt", async () => {
    const rx = await startReceiver(200);
    try {
      await ctx.api
        .post("/api/v1/webhooks")
        .set("X-API-Key", ctx.demo)
        .send({ url: rx.url, event_types: ["purchase.fulfilled"] })
        .expect(201);
      const ev = (await control("post", "/events").send({ type: "purchase.fulfilled", key: ctx.demo }).expect(201)).body
        .data;
      const id = ev.deliveries[0].id;
      expect(rx.received).toHaveLength(1);
      await ctx.emu.clock.advance(5_000);
      const res = (await control("post", "/webhooks/resend").send({ delivery_id: id }).expect(200)).body.data;
      expect(res.delivery).toMatchObject({ id, status: "DELIVERED", attempts: 2 });
      expect(rx.received).toHaveLength(2);
      const [a, b] = rx.received;
      expect(b!.headers["x-mystery-delivery"]).toBe(a!.headers["x-mystery-delivery"]);
      expect(b!.body).toBe(a!.body);
      // a fresh (wall-clock) signing stamp; the outbox records the virtual times, 5 s apart
      expect(Number(b!.headers["x-mystery-timestamp"])).toBeGreaterThanOrEqual(
        Number(a!.headers["x-mystery-timestamp"]),
      );
      const outbox = (await control("get", `/webhooks/outbox?delivery_id=${id}`).expect(200)).body.data.attempts as {
        at: string;
      }[];
      expect(Date.parse(outbox[1]!.at) - Date.parse(outbox[0]!.at)).toBe(5_000);

      // a failed resend goes on with the retry schedule
      rx.script([500]);
      const failed = (await control("post", "/webhooks/resend").send({ delivery_id: id }).expect(200)).body.data;
      expect(failed.delivery).toMatchObject({ status: "PENDING", attempts: 3 });
      expect(failed.delivery.next_retry_at).not.toBeNull();
    } finally {
      await rx.close();
    }
  });

  it("answers 404 not_found for an unknown delivery, 400 for a bad id, 409 when the webhook is inactive", async () => {
    expectError(await control("post", "/webhooks/resend").send({ delivery_id: 999_999 }), 404, "not_found");
    expectError(await control("post", "/webhooks/resend").send({ delivery_id: "x" }), 400, "invalid_value");
    expectError(await control("post", "/webhooks/resend").send({}), 400, "invalid_value");
    const rx = await startReceiver(200);
    try {
      const hook = (await ctx.api.post("/api/v1/webhooks").set("X-API-Key", ctx.demo).send({ url: rx.url }).expect(201))
        .body.data;
      const ev = (await control("post", "/events").send({ type: "purchase.fulfilled", key: ctx.demo }).expect(201)).body
        .data;
      await ctx.api
        .patch(`/api/v1/webhooks/${hook.id}`)
        .set("X-API-Key", ctx.demo)
        .send({ is_active: false })
        .expect(200);
      expectError(
        await control("post", "/webhooks/resend").send({ delivery_id: ev.deliveries[0].id }),
        409,
        "invalid_status",
      );
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});
