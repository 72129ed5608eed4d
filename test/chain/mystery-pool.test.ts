import { describe, expect, it } from "vitest";
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  cardNftAbi,
  DEFAULT_GROUPS,
  DEFAULT_TIERS,
  ItemType,
  mysteryPoolAbi,
  usdStablecoinAbi,
  vrfCoordinatorMockAbi,
  vrfRequestIdsFromLogs,
  type Chain,
  type FixtureAccount,
} from "../../chain/index.ts";
import { blockTime, buyAndReveal, expectRevert, ownerOf, usdcBalance, write, useChain } from "./helpers.ts";

let chain: Chain;
let alice: FixtureAccount;
let bob: FixtureAccount;

const pool = (from: FixtureAccount, fn: string, args: readonly unknown[]) =>
  write(chain, from, chain.addresses.mysteryPool, mysteryPoolAbi, fn, args);
const readPool = (functionName: string, args: readonly unknown[] = []) =>
  chain.publicClient.readContract({
    address: chain.addresses.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: functionName as any,
    args: args as any,
  }) as Promise<any>;

useChain(
  async (c) => {
    chain = c;
    [alice, bob] = chain.endUsers as [FixtureAccount, FixtureAccount];
  },
  { rpcPort: 0 },
);

describe("MysteryPool purchase → VRF → reveal", () => {
  it("integration: a fixture wallet approves and purchases over JSON-RPC with raw calldata; VRF fulfil mints the items to it", async () => {
    // The user's own viem clients talk HTTP JSON-RPC to 127.0.0.1, like a real wallet.
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const user = privateKeyToAccount(alice.privateKey);
    const wallet = createWalletClient({ account: user, chain: chain.viemChain, transport: http(chain.rpcUrl!) });
    const rpc = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl!), pollingInterval: 50 });
    const tier = DEFAULT_TIERS[1]!; // Premium, $100, 3 slots
    const poolBefore = await usdcBalance(chain, chain.addresses.mysteryPool);

    const approveData = encodeFunctionData({
      abi: usdStablecoinAbi,
      functionName: "approve",
      args: [chain.addresses.mysteryPool, tier.price],
    });
    const approveHash = await wallet.sendTransaction({ to: chain.addresses.stablecoin, data: approveData });
    expect((await rpc.waitForTransactionReceipt({ hash: approveHash })).status).toBe("success");

    const purchaseData = encodeFunctionData({ abi: mysteryPoolAbi, functionName: "purchase", args: [tier.tierId] });
    const purchaseHash = await wallet.sendTransaction({ to: chain.addresses.mysteryPool, data: purchaseData });
    const receipt = await rpc.waitForTransactionReceipt({ hash: purchaseHash });
    expect(receipt.status).toBe("success");

    // The VRF request id is decodable from the receipt: coordinator event and pool event agree.
    const [vrfLog] = parseEventLogs({
      abi: vrfCoordinatorMockAbi,
      eventName: "RandomWordsRequested",
      logs: receipt.logs,
    });
    const [poolLog] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs });
    expect(vrfLog!.args.sender).toBe(chain.addresses.mysteryPool);
    expect(vrfLog!.args.numWords).toBe(tier.slots.length);
    expect(vrfLog!.args.subId).toBe(chain.vrf.subscriptionId);
    expect(vrfLog!.args.keyHash).toBe(chain.vrf.keyHash);
    expect(poolLog!.args).toEqual({
      requestId: vrfLog!.args.requestId,
      buyer: alice.address,
      tierId: BigInt(tier.tierId),
      price: tier.price,
    });
    const requestId = poolLog!.args.requestId;
    expect(vrfRequestIdsFromLogs(receipt.logs)).toEqual([requestId]);
    expect(await chain.pendingVrfRequests()).toEqual([requestId]);
    expect(await usdcBalance(chain, alice.address)).toBe(10_000_000_000n - tier.price);
    expect(await usdcBalance(chain, chain.addresses.mysteryPool)).toBe(poolBefore + tier.price);

    const fulfilled = await chain.fulfillVrf();
    expect(fulfilled.requestId).toBe(requestId);
    expect(fulfilled.success).toBe(true);
    expect(await chain.pendingVrfRequests()).toEqual([]);

    const fr = await rpc.getTransactionReceipt({ hash: fulfilled.txHash });
    const [revealed] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRevealed", logs: fr.logs });
    expect(revealed!.args.requestId).toBe(requestId);
    expect(revealed!.args.buyer).toBe(alice.address);
    const tokenIds = revealed!.args.tokenIds;
    expect(tokenIds).toHaveLength(tier.slots.length);

    const now = await blockTime(chain);
    for (const [i, tokenId] of tokenIds.entries()) {
      expect(
        await rpc.readContract({
          address: chain.addresses.cardNft,
          abi: cardNftAbi,
          functionName: "ownerOf",
          args: [tokenId],
        }),
      ).toBe(alice.address);
      const item = await rpc.readContract({
        address: chain.addresses.cardNft,
        abi: cardNftAbi,
        functionName: "getItem",
        args: [tokenId],
      });
      const record = await readPool("getTokenRecord", [tokenId]);
      const slot = tier.slots[i]!;
      const group = DEFAULT_GROUPS.find((g) => g.groupId === record.groupId)!;
      expect(slot.groups.map((g) => g.groupId)).toContain(record.groupId);
      expect(item.itemType).toBe(ItemType[group.itemType]);
      expect(item.value).toBeGreaterThanOrEqual(group.minValue);
      expect(item.value).toBeLessThanOrEqual(group.maxValue);
      expect(item.value % 10_000n).toBe(0n);
      expect(record.originalRecipient).toBe(alice.address);
      expect(BigInt(record.mintedAt)).toBe(now);
      expect(record.oracleValue).toBe(item.value);
      expect(record.requestId).toBe(requestId);
    }
    expect(
      await rpc.readContract({
        address: chain.addresses.cardNft,
        abi: cardNftAbi,
        functionName: "balanceOf",
        args: [alice.address],
      }),
    ).toBe(BigInt(tier.slots.length));
    const purchase = await readPool("getPurchase", [requestId]);
    expect(purchase.status).toBe(2); // REVEALED
    expect(purchase.tokenIds).toEqual(tokenIds);
    expect((await readPool("getTier", [tier.tierId])).totalPurchases).toBe(1n);
  });

  it("reveals deterministically from the seed-derived words", async () => {
    const snap = await chain.snapshot();
    const first = await buyAndReveal(chain, alice, 3);
    const items1 = await Promise.all(first.tokenIds.map((id) => readPool("getTokenRecord", [id])));
    await chain.revert(snap);
    const second = await buyAndReveal(chain, alice, 3);
    const items2 = await Promise.all(second.tokenIds.map((id) => readPool("getTokenRecord", [id])));
    expect(second.requestId).toBe(first.requestId);
    expect(items2.map((r) => [r.groupId, r.oracleValue])).toEqual(items1.map((r) => [r.groupId, r.oracleValue]));
    // explicit words override the seed
    await chain.revert(snap);
    const words = [1n, 2n, 3n];
    const third = await buyAndReveal(chain, alice, 3, words);
    const items3 = await Promise.all(third.tokenIds.map((id) => readPool("getTokenRecord", [id])));
    expect(items3.map((r) => [r.groupId, r.oracleValue])).not.toEqual(items1.map((r) => [r.groupId, r.oracleValue]));
  });

  it("draws groups by weight (statistically, 60 reveals of the 2-slot Starter tier)", async () => {
    const counts = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const { tokenIds } = await buyAndReveal(chain, chain.endUsers[2 + (i % 3)]!, 1);
      const r = await readPool("getTokenRecord", [tokenIds[0]]);
      counts.set(r.groupId, (counts.get(r.groupId) ?? 0) + 1);
      expect((await readPool("getTokenRecord", [tokenIds[1]])).groupId).toBe(7); // packet slot has one group
    }
    // weights 6000/3000/900/100: Common must dominate, Ultra Rare must be rare
    expect(counts.get(1) ?? 0).toBeGreaterThan(25);
    expect(counts.get(4) ?? 0).toBeLessThan(6);
  });

  it("rejects unknown/inactive tiers, missing allowance, and callbacks not from the coordinator", async () => {
    await expectRevert(pool(alice, "purchase", [99]), "TierNotFound");
    await pool(chain.operator, "setTierActive", [2, false]);
    await write(chain, alice, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
      chain.addresses.mysteryPool,
      10n ** 12n,
    ]);
    await expectRevert(pool(alice, "purchase", [2]), "TierInactive");
    await write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [chain.addresses.mysteryPool, 1n]);
    await expectRevert(pool(bob, "purchase", [1]), "ERC20InsufficientAllowance");
    await expectRevert(pool(alice, "rawFulfillRandomWords", [1n, [1n, 2n]]), "OnlyCoordinatorCanFulfill");
    // price cap (the prepare endpoint's max_price)
    await pool(chain.operator, "setTierPrice", [1, 30_000_000n]);
    expect(await expectRevert(pool(alice, "purchase", [1, 25_000_000n]), "PriceAboveMax")).toEqual([
      30_000_000n,
      25_000_000n,
    ]);
    await expectRevert(pool(chain.relayer, "purchaseFor", [bob.address, 1, 29_999_999n]), "PriceAboveMax");
    const ok = await pool(alice, "purchase", [1, 30_000_000n]);
    expect(parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: ok.logs })[0]!.args.price).toBe(
      30_000_000n,
    );
    await expectRevert(pool(alice, "configureTier", [4, "x", 1n, 0n, true, []]), "OwnableUnauthorizedAccount");
  });

  it("relayer purchaseFor: relayer pays, buyer receives; others cannot relay", async () => {
    await expectRevert(pool(alice, "purchaseFor", [alice.address, 1]), "NotRelayer");
    const relayerBefore = await usdcBalance(chain, chain.relayer.address);
    const receipt = await pool(chain.relayer, "purchaseFor", [bob.address, 1]);
    const [req] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs });
    expect(req!.args.buyer).toBe(bob.address);
    expect(
      parseEventLogs({ abi: mysteryPoolAbi, eventName: "RelayedPurchase", logs: receipt.logs })[0]!.args.relayer,
    ).toBe(chain.relayer.address);
    expect(await usdcBalance(chain, chain.relayer.address)).toBe(relayerBefore - DEFAULT_TIERS[0]!.price);
    expect(await usdcBalance(chain, bob.address)).toBe(10_000_000_000n);
    const f = await chain.fulfillVrf(req!.args.requestId);
    expect(f.success).toBe(true);
    const purchase = await readPool("getPurchase", [req!.args.requestId]);
    expect(purchase.payer).toBe(chain.relayer.address);
    for (const id of purchase.tokenIds) expect(await ownerOf(chain, id)).toBe(bob.address);
  });

  it("setShortfall: the reveal mints only the delivered slots and pays their share back to the payer, once; owner only, pending only, at least one item", async () => {
    const tier = DEFAULT_TIERS[1]!; // 3 slots
    const nfts = () =>
      chain.publicClient.readContract({
        address: chain.addresses.cardNft,
        abi: cardNftAbi,
        functionName: "balanceOf",
        args: [bob.address],
      });
    const receipt = await pool(chain.relayer, "purchaseFor", [bob.address, tier.tierId]);
    const requestId = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs })[0]!
      .args.requestId;
    await expectRevert(pool(alice, "setShortfall", [requestId, 1]), "OwnableUnauthorizedAccount");
    await expectRevert(pool(chain.operator, "setShortfall", [requestId, tier.slots.length]), "InvalidTierConfig");
    await pool(chain.operator, "setShortfall", [requestId, 1]);
    await pool(chain.operator, "setShortfall", [requestId, 2]); // a second mark replaces the count
    const [relayerBefore, poolBefore, nftsBefore] = [
      await usdcBalance(chain, chain.relayer.address),
      await usdcBalance(chain, chain.addresses.mysteryPool),
      await nfts(),
    ];
    const f = await chain.fulfillVrf(requestId);
    expect(f.success).toBe(true);
    const refund = (tier.price * 2n) / BigInt(tier.slots.length);
    const purchase = await readPool("getPurchase", [requestId]);
    expect(purchase.tokenIds).toHaveLength(tier.slots.length - 2);
    for (const id of purchase.tokenIds) expect(await ownerOf(chain, id)).toBe(bob.address);
    expect(await nfts()).toBe(nftsBefore + BigInt(tier.slots.length - 2));
    expect(await usdcBalance(chain, chain.relayer.address)).toBe(relayerBefore + refund);
    expect(await usdcBalance(chain, chain.addresses.mysteryPool)).toBe(poolBefore - refund);
    expect([await readPool("shortfallOf", [requestId]), await readPool("shortfallRefundOf", [requestId])]).toEqual([
      2,
      refund,
    ]);
    await expectRevert(pool(chain.operator, "setShortfall", [requestId, 1]), "RequestNotPending");
  });
});

describe("MysteryPool sell-back (acceptCardBuyback)", () => {
  async function owned(user: FixtureAccount, tierId = 2) {
    const { tokenIds } = await buyAndReveal(chain, user, tierId);
    await write(chain, user, chain.addresses.cardNft, cardNftAbi, "setApprovalForAll", [
      chain.addresses.mysteryPool,
      true,
    ]);
    return tokenIds;
  }
  const payoutOf = async (ids: readonly bigint[]) => {
    let t = 0n;
    for (const id of ids) t += ((await readPool("oracleValueOf", [id])) * 850n) / 1000n;
    return t;
  };

  it("pays oracle value × 85 % to the original recipient, takes the NFTs, emits CardSellExecuted", async () => {
    const ids = await owned(alice);
    await pool(chain.operator, "setOracleValue", [ids[0], 40_000_000n]); // owner-set oracle value
    const expected = await payoutOf(ids);
    expect(await readPool("buybackPayoutOf", [ids[0]])).toBe(34_000_000n);
    const before = await usdcBalance(chain, alice.address);
    const liquidity = await readPool("liquidity");
    const receipt = await pool(alice, "acceptCardBuyback", [ids, expected]);
    const [ev] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "CardSellExecuted", logs: receipt.logs });
    expect(ev!.args).toEqual({ seller: alice.address, tokenIds: ids, total: expected });
    expect(await usdcBalance(chain, alice.address)).toBe(before + expected);
    expect(await readPool("liquidity")).toBe(liquidity - expected);
    for (const id of ids) expect(await ownerOf(chain, id)).toBe(chain.addresses.mysteryPool);
    // cannot sell twice
    await expectRevert(pool(alice, "acceptCardBuyback", [[ids[0]], 0n]), "NoBuybackWindow");
  });

  it("rejects a holder who is not the original recipient, and a recipient who no longer holds", async () => {
    const ids = await owned(alice);
    await write(chain, alice, chain.addresses.cardNft, cardNftAbi, "transferFrom", [
      alice.address,
      bob.address,
      ids[0],
    ]);
    await write(chain, bob, chain.addresses.cardNft, cardNftAbi, "setApprovalForAll", [
      chain.addresses.mysteryPool,
      true,
    ]);
    const args = await expectRevert(pool(bob, "acceptCardBuyback", [[ids[0]], 0n]), "NotOriginalRecipient");
    expect(args).toEqual([ids[0], bob.address, alice.address]);
    await expectRevert(pool(alice, "acceptCardBuyback", [[ids[0]], 0n]), "NotTokenHolder");
  });

  it("closes the window after 30 days (configurable)", async () => {
    const ids = await owned(alice);
    const mintedAt = BigInt(await readPool("mintedAtOf", [ids[0]]));
    expect(await readPool("buybackExpiresAt", [ids[0]])).toBe(mintedAt + 30n * 86400n);
    await chain.setTime(Number(mintedAt + 30n * 86400n) * 1000); // last second inside the window
    await pool(alice, "acceptCardBuyback", [[ids[0]], 0n]);
    await chain.setTime(Number(mintedAt + 30n * 86400n + 1n) * 1000);
    const args = await expectRevert(pool(alice, "acceptCardBuyback", [[ids[1]], 0n]), "BuybackWindowExpired");
    expect(args).toEqual([ids[1], mintedAt + 30n * 86400n]);
    await pool(chain.operator, "setBuybackParams", [60 * 86400, 900]);
    await pool(alice, "acceptCardBuyback", [[ids[1]], 0n]);
  });

  it("is all-or-nothing: one ineligible token reverts the batch and names it", async () => {
    const ids = await owned(alice);
    const other = await owned(bob, 1);
    const before = await usdcBalance(chain, alice.address);
    const args = await expectRevert(
      pool(alice, "acceptCardBuyback", [[ids[0], ids[1], other[0]], 0n]),
      "NotTokenHolder",
    );
    expect(args![0]).toBe(other[0]);
    for (const id of ids) expect(await ownerOf(chain, id)).toBe(alice.address);
    expect(await usdcBalance(chain, alice.address)).toBe(before);
    // value unknown also names the token
    await pool(chain.operator, "setOracleValue", [ids[2], 0n]);
    expect(await expectRevert(pool(alice, "acceptCardBuyback", [ids, 0n]), "ValueUnknown")).toEqual([ids[2]]);
  });

  it("enforces batch size (1..50), minTotal and liquidity; non-pool tokens have no window", async () => {
    const ids = await owned(alice);
    await expectRevert(pool(alice, "acceptCardBuyback", [[], 0n]), "EmptyBatch");
    const big = Array.from({ length: 51 }, (_, i) => BigInt(i + 1));
    expect(await expectRevert(pool(alice, "acceptCardBuyback", [big, 0n]), "BatchTooLarge")).toEqual([51n, 50n]);
    const total = await payoutOf(ids);
    await expectRevert(pool(alice, "acceptCardBuyback", [ids, total + 1n]), "PayoutBelowMinimum");
    const liquidity = await readPool("liquidity");
    await pool(chain.operator, "withdraw", [chain.operator.address, liquidity - total + 1n]);
    await expectRevert(pool(alice, "acceptCardBuyback", [ids, 0n]), "InsufficientLiquidity");
    await expectRevert(pool(alice, "acceptCardBuyback", [[999n], 0n]), "NoBuybackWindow");
  });
});
