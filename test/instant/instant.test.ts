import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEventLogs, type Hex } from "viem";
import { TerminalStateError } from "@ripdotfun/cardos-sdk";
import { cardNftAbi, instantPackAbi, vrfRequestIdsFromLogs, type FixtureAccount } from "../../chain/index.ts";
import type { BusEvents } from "../../emulator/bus.ts";
import { EVENT_PAYLOADS, type PartnerEventType } from "../../emulator/events/payloads.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { apiError, sdkFor, waitForDelivery } from "../sdk.ts";
import { expectError } from "../../conformance/assert.ts";
import { usdcOf } from "../chain-reads.ts";

// Instant packs over HTTP driven by the official SDK (test/sdk.ts; docs/reference/sdk-shapes.md “Instant pack methods”):
// catalog → prepare → the user's fixture wallet signs approve +
// purchaseInstantOpenFor on the local chain → submit → waitForDelivery polls to
// FULFILLED with the cards. Every error code of the contract, by code.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let base: string;
const events: BusEvents["webhook.event"][] = [];

beforeAll(async () => {
  // The live purchase gate admits 5 at once (503 overloaded beyond); the parallel-submit test needs 8 in flight.
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: false, vrf: "auto" }, gates: { purchase: 16 } }));
  emu.services.bus.on("webhook.event", (e) => events.push(e));
  base = await emu.snapshot();
});
afterAll(() => close());
beforeEach(async () => {
  await emu.restore(base);
  events.length = 0;
});

const chain = () => emu.chain!;
const user = (i: number): FixtureAccount => chain().endUsers[i]!;
/** The official SDK's instant packs resource for `key`. */
const sdk = (key = emu.key("demo")) => sdkFor(emu, key).instant;
/** The SDK's waitForDelivery, polling on the emulator's clock: the delivered purchase and the states seen. */
const delivered = (id: number, key = emu.key("demo")) => waitForDelivery(sdkFor(emu, key), id);

/** The wallet sends each call in order (as a dapp would); returns the last receipt. */
async function send(from: FixtureAccount, calls: ReadonlyArray<{ to: string; data: string }>, gas?: bigint) {
  const wallet = chain().walletClientFor(from);
  let receipt;
  for (const c of calls) {
    const hash = await wallet.sendTransaction({
      to: c.to as Hex,
      data: c.data as Hex,
      account: wallet.account,
      chain: chain().viemChain,
      ...(gas ? { gas } : {}),
    });
    receipt = await chain().publicClient.waitForTransactionReceipt({ hash });
  }
  return receipt!;
}

/** prepare → sign → submit (with the request id from the receipt); the SUBMITTED purchase. */
async function buy(packet = 1, from = user(0), key = emu.key("demo"), extra: { external_user_id?: string } = {}) {
  const prep = await sdk(key).prepare({ packet_type_id: packet, wallet_address: from.address });
  const receipt = await send(from, prep.calls);
  expect(receipt.status).toBe("success");
  const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
  const purchase = await sdk(key).submit({
    packet_type_id: packet,
    transaction_hash: receipt.transactionHash,
    request_id: String(requestId),
    wallet_address: from.address,
    ...extra,
  });
  return { prep, receipt, purchase };
}

/** Every event published so far has the data shape of docs/reference/sdk-shapes.md “Webhook event data” (emulator/events/payloads.ts). */
function expectWireShapes() {
  for (const e of events) {
    const r = EVENT_PAYLOADS[e.type as PartnerEventType].safeParse(e.data);
    expect(r.success, `${e.type}: ${r.success ? "" : r.error.message}`).toBe(true);
  }
}

describe("instant catalog", () => {
  it("lists packs in stock with live price and stock; include_unavailable=1 adds sold-out ones; offset paging", async () => {
    const def = await sdk().catalog();
    expect(def.items.map((p) => [p.packet_type_id, p.price, p.price_usdc, p.available_packs])).toEqual([
      [1, "4990000", "4.990000", 24],
      [2, "5490000", "5.490000", 12],
      [3, "29990000", "29.990000", 3],
    ]);
    expect(def.pagination).toEqual({ limit: 50, offset: 0, has_more: false });
    for (const p of def.items) {
      expect(p.set_id).toMatch(/\S/);
      expect(p.product_id).toMatch(/\S/);
      expect(p.language).toBe(p.language.toUpperCase());
    }
    expect(def.items.map((p) => p.tcg_type)).toEqual(["pokemon", "onepiece", "pokemon"]);
    const all = await sdk().catalog({ include_unavailable: true });
    expect(all.items.map((p) => [p.packet_type_id, p.available_packs])).toEqual([
      [1, 24],
      [2, 12],
      [3, 3],
      [4, 0],
    ]);
    const first = await sdk().catalog({ include_unavailable: true, limit: 2 });
    expect(first.items.map((p) => p.packet_type_id)).toEqual([1, 2]);
    expect(first.pagination).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(
      (await sdk().catalog({ include_unavailable: true, limit: 2, offset: 2 })).items.map((p) => p.packet_type_id),
    ).toEqual([3, 4]);
    // Same seed, same products: a second read is identical.
    expect((await sdk().catalog()).items).toEqual(def.items);
  });

  it("refuses a malformed include_unavailable and paging, by code", async () => {
    const key = emu.key("demo");
    expect((await api.get("/api/v1/instant/catalog?include_unavailable=yes").set("X-API-Key", key)).body.error).toBe(
      "invalid_value",
    );
    expect((await api.get("/api/v1/instant/catalog?limit=x").set("X-API-Key", key)).body.error).toBe(
      "invalid_pagination",
    );
    expect(
      (await api.get("/api/v1/instant/catalog?include_unavailable=true").set("X-API-Key", key)).body.data.packs,
    ).toHaveLength(4);
  });

  it("needs read:catalog for the catalog and packs:purchase / packs:read for purchases (403 otherwise); a tenant key is refused", async () => {
    const catalogOnly = emu.key("catalog-only");
    expect((await api.get("/api/v1/instant/catalog").set("X-API-Key", catalogOnly)).status).toBe(200);
    const res = await api
      .post("/api/v1/instant/purchase/prepare")
      .set("X-API-Key", catalogOnly)
      .send({ packet_type_id: 1, wallet_address: user(0).address });
    expectError(res, 403, "Insufficient permissions");
    expect(res.body.message).toContain("packs:purchase");
    expectError(
      await api.get("/api/v1/instant/purchases").set("X-API-Key", catalogOnly),
      403,
      "Insufficient permissions",
    );
    expectError(
      await api.get("/api/v1/instant/catalog").set("X-API-Key", emu.key("tenant")),
      403,
      "Insufficient permissions",
    );
  });
});

describe("instant purchase: prepare → sign → submit → FULFILLED", () => {
  it("runs the SDK flow on the local chain: two calls without kind, 202 SUBMITTED from the receipt, polling to FULFILLED with the pack and its cards", async () => {
    const u = user(0);
    const before = await usdcOf(emu, u.address);
    const cardos = sdkFor(emu, emu.key("demo"));
    const client = cardos.instant;
    const prep = await client.prepare({ packet_type_id: 1, wallet_address: u.address, max_price_usdc: "5.00" });
    expect(prep).toMatchObject({
      chain_id: chain().chainId,
      payment_token: chain().addresses.stablecoin,
      contract: chain().addresses.instantPack,
      packet_type_id: 1,
      price: "4990000",
      price_usdc: "4.990000",
    });
    expect(prep.calls).toHaveLength(2);
    expect(prep.calls.map((c) => Object.keys(c).sort())).toEqual([
      ["data", "description", "to"],
      ["data", "description", "to"],
    ]);
    expect(prep.calls.map((c) => c.to)).toEqual([prep.payment_token, prep.contract]);
    // prepare creates nothing.
    expect((await client.listPurchases()).items).toEqual([]);

    const receipt = await send(u, prep.calls);
    const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
    const sub = await client.submit({
      packet_type_id: 1,
      transaction_hash: receipt.transactionHash,
      request_id: String(requestId),
      external_user_id: "collector-7",
      wallet_address: u.address,
    });
    expect(sub).toMatchObject({
      status: "SUBMITTED",
      custody: "NON_CUSTODIAL",
      memo: `acme-instant-${sub.id}`,
      packet_type_id: 1,
      quantity: 1,
      price: "4990000",
      price_usdc: "4.990000",
      onchain_request_id: String(requestId),
      transaction_hash: receipt.transactionHash,
      purchaser_address: u.address,
      recipient_address: u.address,
      failure_reason: null,
      fulfilled_at: null,
    });
    expect(sub).not.toHaveProperty("cards");
    expect(await usdcOf(emu, u.address)).toBe(before - 4_990_000n);

    const { value: purchase, seen } = await waitForDelivery(cardos, sub.id);
    expect(seen).toEqual(["SUBMITTED", "FULFILLED"]);
    expect(purchase.pack).toMatchObject({ set_id: purchase.set_id, name: expect.any(String) });
    expect(purchase.pack!.opened_at).toBe(purchase.fulfilled_at);
    expect(purchase.cards).toHaveLength(5);
    // The cards are the tokens the store minted to the recipient, in the opening's order.
    const opened = await chain().publicClient.readContract({
      address: chain().addresses.instantPack,
      abi: instantPackAbi,
      functionName: "getOpening",
      args: [requestId!],
    });
    expect(purchase.cards!.map((c) => c.token_id)).toEqual(opened.tokenIds.map(String));
    for (const c of purchase.cards!) {
      expect(
        await chain().publicClient.readContract({
          address: chain().addresses.cardNft,
          abi: cardNftAbi,
          functionName: "ownerOf",
          args: [BigInt(c.token_id)],
        }),
      ).toBe(u.address);
      expect(c.card_id).toMatch(/\S/);
      expect(c.set_id).toBe(purchase.set_id);
      expect(c.value_usd === null || /^\d+\.\d{6}$/.test(c.value_usd)).toBe(true);
    }
    expect(purchase.cards!.filter((c) => c.is_chase)).toHaveLength(1);
    expect((await client.catalog()).items.find((p) => p.packet_type_id === 1)!.available_packs).toBe(23);

    // Webhooks from the real lifecycle, in the wire shapes.
    expect(events.map((e) => e.type)).toEqual(["instant_purchase.submitted", "instant_purchase.fulfilled"]);
    expect(events[0]!.data).toEqual({
      purchase_id: sub.id,
      status: "SUBMITTED",
      transaction_hash: receipt.transactionHash,
      store_request_id: String(requestId),
      pool_request_id: null,
      custody: "NON_CUSTODIAL",
    });
    expect(events[1]!.data).toMatchObject({
      id: sub.id,
      purchase_id: sub.id,
      status: "FULFILLED",
      cards: purchase.cards,
      pack: purchase.pack,
    });
    expectWireShapes();

    // Filters.
    expect((await client.listPurchases({ status: "fulfilled" as never })).items.map((p) => p.id)).toEqual([sub.id]);
    expect((await client.listPurchases({ status: "SUBMITTED" })).items).toEqual([]);
    expect((await client.listPurchases({ external_user_id: "collector-7" })).items.map((p) => p.id)).toEqual([sub.id]);
    expect((await client.listPurchases({ external_user_id: "someone-else" })).items).toEqual([]);
    expect((await client.listPurchases({ wallet_address: u.address.toLowerCase() })).items.map((p) => p.id)).toEqual([
      sub.id,
    ]);
    expect((await client.listPurchases({ wallet_address: user(1).address })).items).toEqual([]);
  });

  it("8 parallel submits of one transaction record one purchase; a resubmit answers it again", async () => {
    const u = user(1);
    const prep = await sdk().prepare({ packet_type_id: 2, wallet_address: u.address });
    const receipt = await send(u, prep.calls);
    const body = { packet_type_id: 2, transaction_hash: receipt.transactionHash };
    const answers = await Promise.all(Array.from({ length: 8 }, () => sdk().submit(body)));
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect((await sdk().listPurchases()).items).toHaveLength(1);
    expect(events.filter((e) => e.type === "instant_purchase.submitted")).toHaveLength(1);
    expect((await sdk().submit(body)).id).toBe(answers[0]!.id);
  });

  it("sells out: once the stock runs down prepare is 409 sold_out, the catalog hides the pack, a buy sent anyway reverts (tx_reverted)", async () => {
    const bought = [];
    for (let i = 0; i < 3; i++) bought.push((await buy(3, user(i))).purchase.id);
    expect((await sdk().catalog()).items.map((p) => p.packet_type_id)).toEqual([1, 2]);
    // The three draws opened the three bundles, each once (the store never draws a bundle twice).
    const opened = await Promise.all(bought.map(async (id) => (await delivered(id)).value.pack!.unique_id));
    expect(opened.sort()).toEqual(["IP-3-0", "IP-3-1", "IP-3-2"]);
    expect(
      (await sdk().catalog({ include_unavailable: true })).items.find((p) => p.packet_type_id === 3)!.available_packs,
    ).toBe(0);
    const err = await apiError(sdk().prepare({ packet_type_id: 3, wallet_address: user(3).address }));
    expect([err.status, err.code]).toEqual([409, "sold_out"]);
    // A wallet that buys with stale calldata: the store reverts SoldOut; submit says tx_reverted.
    const stale = await sdk().prepare({ packet_type_id: 1, wallet_address: user(3).address });
    const calls = [stale.calls[0]!, { ...stale.calls[1]!, data: stale.calls[1]!.data }];
    const { encodeFunctionData } = await import("viem");
    calls[1] = {
      ...calls[1]!,
      data: encodeFunctionData({
        abi: instantPackAbi,
        functionName: "purchaseInstantOpenFor",
        args: [3, user(3).address, 100_000_000n],
      }),
    };
    await send(user(3), calls.slice(0, 1));
    const reverted = await send(user(3), calls.slice(1), 1_000_000n);
    expect(reverted.status).toBe("reverted");
    const e2 = await apiError(sdk().submit({ packet_type_id: 3, transaction_hash: reverted.transactionHash }));
    expect([e2.status, e2.code]).toEqual([400, "tx_reverted"]);
  });
});

describe("instant errors, by code", () => {
  it("prepare: invalid_packet_type, invalid_wallet_address, invalid_amount, max_price_exceeded, sold_out", async () => {
    const w = user(0).address;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ packet_type_id: 99, wallet_address: w }, 400, "invalid_packet_type"],
      [{ packet_type_id: "abc", wallet_address: w }, 400, "invalid_packet_type"],
      [{ packet_type_id: 1.5, wallet_address: w }, 400, "invalid_packet_type"],
      [{ wallet_address: w }, 400, "invalid_packet_type"],
      [{ packet_type_id: 1, wallet_address: "0x123" }, 400, "invalid_wallet_address"],
      [{ packet_type_id: 1 }, 400, "invalid_wallet_address"],
      [{ packet_type_id: 1, wallet_address: w, max_price_usdc: "-1" }, 400, "invalid_amount"],
      [{ packet_type_id: 1, wallet_address: w, max_price_usdc: "4.98" }, 409, "max_price_exceeded"],
      [{ packet_type_id: 4, wallet_address: w }, 409, "sold_out"],
    ];
    for (const [body, status, code] of cases) {
      const res = await api.post("/api/v1/instant/purchase/prepare").set("X-API-Key", emu.key("demo")).send(body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([status, code]);
    }
    // A numeric string is the same packet type; max_price_usdc equal to the price is fine.
    expect(
      (
        await api
          .post("/api/v1/instant/purchase/prepare")
          .set("X-API-Key", emu.key("demo"))
          .send({ packet_type_id: "1", wallet_address: w, max_price_usdc: "4.99" })
      ).status,
    ).toBe(200);
  });

  it("submit: missing_tx_hash, tx_unverified, packet_type_mismatch, purchaser_mismatch, tx_already_recorded", async () => {
    const { receipt } = await buy(1, user(0));
    const demo = sdk();
    const code = async (p: Promise<unknown>) => {
      const e = await apiError(p);
      return [e.status, e.code];
    };
    expect(await code(demo.submit({ packet_type_id: 1 } as never))).toEqual([400, "missing_tx_hash"]);
    expect(await code(demo.submit({ packet_type_id: 1, transaction_hash: "" }))).toEqual([400, "missing_tx_hash"]);
    expect(await code(demo.submit({ packet_type_id: 1, transaction_hash: "0xnothex" }))).toEqual([
      400,
      "tx_unverified",
    ]);
    expect(await code(demo.submit({ packet_type_id: 1, transaction_hash: `0x${"ab".repeat(32)}` }))).toEqual([
      400,
      "tx_unverified",
    ]);
    // A mined transaction that is not an instant purchase (a plain USDC approve).
    const other = await send(user(2), [
      {
        to: chain().addresses.stablecoin,
        data: (await sdk().prepare({ packet_type_id: 1, wallet_address: user(2).address })).calls[0]!.data,
      },
    ]);
    expect(await code(demo.submit({ packet_type_id: 1, transaction_hash: other.transactionHash }))).toEqual([
      400,
      "tx_unverified",
    ]);
    // What the body says is checked against the receipt.
    const fresh = await sdk().prepare({ packet_type_id: 2, wallet_address: user(1).address });
    const r2 = await send(user(1), fresh.calls);
    expect(await code(demo.submit({ packet_type_id: 1, transaction_hash: r2.transactionHash }))).toEqual([
      400,
      "packet_type_mismatch",
    ]);
    expect(
      await code(
        demo.submit({ packet_type_id: 2, transaction_hash: r2.transactionHash, wallet_address: user(0).address }),
      ),
    ).toEqual([400, "purchaser_mismatch"]);
    expect(
      await code(demo.submit({ packet_type_id: 2, transaction_hash: r2.transactionHash, wallet_address: "0x12" })),
    ).toEqual([400, "invalid_wallet_address"]);
    expect(await code(demo.submit({ packet_type_id: "x" as never, transaction_hash: r2.transactionHash }))).toEqual([
      400,
      "invalid_packet_type",
    ]);
    // Another partner cannot record a transaction this partner recorded.
    expect(
      await code(
        sdk(emu.key("revenue-share")).submit({ packet_type_id: 1, transaction_hash: receipt.transactionHash }),
      ),
    ).toEqual([409, "tx_already_recorded"]);
    // A replay is checked like the first submit: the recorded purchase answers only what matches it.
    expect(await code(demo.submit({ packet_type_id: 2, transaction_hash: receipt.transactionHash }))).toEqual([
      400,
      "packet_type_mismatch",
    ]);
    expect(
      await code(
        demo.submit({ packet_type_id: 1, transaction_hash: receipt.transactionHash, wallet_address: user(1).address }),
      ),
    ).toEqual([400, "purchaser_mismatch"]);
    expect(
      (
        await demo.submit({
          packet_type_id: 1,
          transaction_hash: receipt.transactionHash,
          wallet_address: user(0).address,
        })
      ).transaction_hash,
    ).toBe(receipt.transactionHash);
  });

  it("get and list: 404 not_found for another partner's or an unknown purchase; 400 invalid_status", async () => {
    const { purchase } = await buy(1, user(0));
    for (const id of [purchase.id, 999_999, "abc"]) {
      const e = await apiError(sdk(emu.key("revenue-share")).getPurchase(id));
      expect([e.status, e.code]).toEqual([404, "not_found"]);
    }
    expect((await sdk(emu.key("revenue-share")).listPurchases()).items).toEqual([]);
    const e = await apiError(sdk().listPurchases({ status: "PARTIALLY_FULFILLED" as never }));
    expect([e.status, e.code]).toEqual([400, "invalid_status"]);
    expect((await sdk().listPurchases({ status: "submitted" as never })).items.map((p) => p.id)).toEqual([purchase.id]);
  });

  it("503 instant_disabled (retryable, Retry-After) on prepare and submit while the operator has instant packs off", async () => {
    const prep = await sdk().prepare({ packet_type_id: 1, wallet_address: user(0).address });
    const receipt = await send(user(0), prep.calls);
    await api.post("/_emulator/instant/enabled").send({ enabled: false }).expect(200);
    for (const p of [
      sdk().prepare({ packet_type_id: 1, wallet_address: user(0).address }),
      sdk().submit({ packet_type_id: 1, transaction_hash: receipt.transactionHash }),
    ]) {
      const e = await apiError(p);
      expect([e.status, e.code, (e.body as { retryable?: boolean }).retryable, e.headers?.get("retry-after")]).toEqual([
        503,
        "instant_disabled",
        true,
        "1",
      ]);
    }
    await api.post("/_emulator/instant/enabled").send({ enabled: true }).expect(200);
    expect((await sdk().submit({ packet_type_id: 1, transaction_hash: receipt.transactionHash })).status).toBe(
      "SUBMITTED",
    );
  });
});

describe("instant failure ends", () => {
  it("an unopened purchase fails after 10 minutes (vrf_timeout, paid back on chain); an operator refund makes it REFUNDED; waitForDelivery throws on both", async () => {
    await api.post("/_emulator/vrf").send({ mode: "manual" }).expect(200);
    try {
      const u = user(4);
      const before = await usdcOf(emu, u.address);
      const { purchase } = await buy(1, u);
      await emu.clock.advance(10 * 60 * 1000);
      const got = await sdk().getPurchase(purchase.id);
      expect([got.status, got.failure_reason]).toEqual(["FAILED", "vrf_timeout"]);
      expect(await usdcOf(emu, u.address)).toBe(before);
      const e = await delivered(purchase.id).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(TerminalStateError);
      expect((e as TerminalStateError).state).toBe("FAILED");

      const second = (await buy(1, u)).purchase;
      const refunded = await api.post(`/_emulator/instant/purchases/${second.id}/refund`).send({}).expect(200);
      expect(refunded.body.data.status).toBe("REFUNDED");
      expect(await usdcOf(emu, u.address)).toBe(before);
      const again = await api.post(`/_emulator/instant/purchases/${second.id}/refund`).send({});
      expect([again.status, again.body.error]).toEqual([409, "invalid_status"]);
      expect(events.map((x) => x.type)).toEqual([
        "instant_purchase.submitted",
        "instant_purchase.failed",
        "instant_purchase.submitted",
        "instant_purchase.refunded",
      ]);
      expect(events[1]!.data).toEqual({ purchase_id: purchase.id, status: "FAILED", reason: "vrf_timeout" });
      expect(events[3]!.data).toEqual({ purchase_id: second.id, status: "REFUNDED" });
      expectWireShapes();
      // Refunded and failed packs went back to stock.
      expect((await sdk().catalog()).items[0]!.available_packs).toBe(24);
    } finally {
      await api.post("/_emulator/vrf").send({ mode: "auto" }).expect(200);
    }
  });
});

describe("instant durability", () => {
  it("the purchase and the store's stock survive a state export and import (slice and chain journal)", async () => {
    const { purchase } = await buy(2, user(0));
    const { value: done } = await delivered(purchase.id);
    const doc = (await api.get("/_emulator/state").expect(200)).body.data;
    const other = await startEmulator({ chain: { rpcPort: false, vrf: "auto" } });
    try {
      await other.api.put("/_emulator/state").send(doc).expect(200);
      const client = sdkFor(other.emu, other.emu.key("demo")).instant;
      expect(await client.getPurchase(purchase.id)).toEqual(done);
      expect((await client.catalog()).items.find((p) => p.packet_type_id === 2)!.available_packs).toBe(11);
      const logs = parseEventLogs({
        abi: instantPackAbi,
        logs: (await other.emu.chain!.publicClient.getTransactionReceipt({ hash: done.transaction_hash as Hex })).logs,
      });
      expect(logs.map((l) => l.eventName)).toContain("InstantPurchaseRequested");
    } finally {
      await other.close();
    }
  });
});

describe("instant sales in revenue, terms and payouts", () => {
  it("a TIER partner's instant packs count in /mystery/revenue (1% of gross), in the accrual and in the closed statement; a POOL partner earns no share", async () => {
    const tier = emu.key("revenue-share");
    const get = async (path: string) =>
      (await api.get(`/api/v1/mystery/${path}`).set("X-API-Key", tier).expect(200)).body.data;
    const before = await get("revenue");
    expect([before.instant_packs, before.by_product.instant.gross_usdc, before.gross_usdc]).toEqual([
      0,
      "0.000000",
      "0.000000",
    ]);
    const { purchase } = await buy(1, user(2), tier);
    await delivered(purchase.id, tier);
    await buy(2, user(3), tier);
    const rev = await get("revenue");
    // 4.99 + 5.49 = 10.48 USDC; 1% = 0.1048.
    expect(rev.instant_packs).toBe(2);
    expect(rev.by_product.instant).toEqual({
      packs: 2,
      gross_usdc: "10.480000",
      sellback_usdc: "0.000000",
      net_usdc: "10.480000",
      share_bps: 100,
      share_usdc: "0.104800",
    });
    expect(rev.components).toMatchObject({
      instant_gross_micros: "10480000",
      instant_net_micros: "10480000",
      instant_share_micros: "104800",
    });
    // The fixture TIER partner has no mystery sales here: the totals are the instant ones.
    expect([rev.gross_usdc, rev.net_usdc, rev.revenue_share_usdc, rev.payout_usdc, rev.rip_retained_usdc]).toEqual([
      "10.480000",
      "10.480000",
      "0.104800",
      "0.104800",
      "10.375200",
    ]);
    const payouts = await get("payouts");
    expect(payouts.accruing).toMatchObject({ instant_packs: 2, payout_usdc: rev.payout_usdc });
    await emu.clock.advance(60_000);
    const closed = (await api.post("/_emulator/mystery/payouts/close").send({ account_id: "nova" }).expect(200)).body
      .data;
    const statement = closed.payouts[0];
    expect(statement.by_product.instant).toEqual({
      packs: 2,
      gross_usdc: "10.480000",
      net_usdc: "10.480000",
      share_bps: 100,
      share_usdc: "0.104800",
    });
    expect(statement.payout_usdc).toBe(rev.payout_usdc);
    // POOL partner (demo): instant packs are counted, no share.
    await buy(1, user(0));
    const pool = (await api.get("/api/v1/mystery/revenue").set("X-API-Key", emu.key("demo")).expect(200)).body.data;
    expect(pool.by_product.instant).toMatchObject({
      packs: 1,
      gross_usdc: "4.990000",
      share_bps: 0,
      share_usdc: "0.000000",
    });
  });
});
