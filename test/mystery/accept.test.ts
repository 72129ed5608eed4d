import { describe, expect, it } from "vitest";
import { encodeFunctionData, type TypedDataDefinition } from "viem";
import { BURN_TYPES, cardNftAbi, usdStablecoinAbi, type FixtureAccount } from "../../chain/index.ts";
import { buyRevealed, sendCalls, user, type Ctx, useMystery } from "./helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// Relayed buyback accept (docs/reference/live-service.md “Buyback offers and the pool wallet”, SDK 0.1.2): accept/prepare, the
// holder's EIP-712 signature of the OfferRequest typed_data, the relayer's acceptOfferFor.

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const B = "/api/v1/mystery/buyback";
const chain = () => ctx.emu.chain!;
const ownerOf = (id: string) =>
  chain().publicClient.readContract({
    address: chain().addresses.cardNft,
    abi: cardNftAbi,
    functionName: "ownerOf",
    args: [BigInt(id)],
  });
const prepare = (token: string, key = ctx.demo) =>
  ctx.api.post(`${B}/${token}/accept/prepare`).set("X-API-Key", key).send({});
const accept = (token: string, body: Record<string, unknown>, key = ctx.demo) =>
  ctx.api.post(`${B}/${token}/accept`).set("X-API-Key", key).send(body);
const sign = (who: FixtureAccount, typed: TypedDataDefinition) => {
  const w = chain().walletClientFor(who);
  return w.signTypedData({ account: w.account!, ...(typed as TypedDataDefinition<Record<string, unknown>, string>) });
};

/** A revealed card worth $40 with an active offer (85% = 34 USDC). */
async function offered(i = 0) {
  const p = await buyRevealed(ctx, ctx.demo, user(ctx, i), 1);
  const card = p.items.find((x: { item_type: string }) => x.item_type === "CARD");
  await ctx.api.post("/_emulator/mystery/oracle").send({ token_id: card.token_id, usdc: "40" }).expect(200);
  const offer = (await ctx.api.post(B).set("X-API-Key", ctx.demo).send({ token_id: card.token_id }).expect(201)).body
    .data;
  return { p, card, offer };
}

describe("relayed buyback accept", () => {
  it("prepare → approve once → holder signs the OfferRequest typed_data (viem signTypedData) → relayer accepts (holder pays no gas) → buyback.confirmed", async () => {
    const u = user(ctx, 0);
    const { card, offer } = await offered(0);
    const prep = await prepare(card.token_id).expect(200);
    const d = prep.body.data;
    expect(d).toMatchObject({
      offer_id: offer.offer_id,
      token_id: card.token_id,
      receiver: u.address,
      requester: chain().poolSigner.address,
      deadline: offer.deadline,
      price_usdc: "34.000000",
      seller_receives_usdc: "33.150000",
      nft_approval: {
        approved: false,
        holder_owns_token: true,
        call: { kind: "set-approval-for-all", to: chain().addresses.cardNft },
      },
      transfer_frozen: { frozen: false, burn_type: null },
      self_submit: { call: { kind: "accept-offer", to: chain().addresses.marketplace } },
      typed_data: {
        primaryType: "OfferRequest",
        // docs/reference/sdk-shapes.md “Buyback shapes” BuybackTypedData: uint256 fields as decimal strings
        message: {
          tokenContractAddress: chain().addresses.cardNft,
          tokenId: card.token_id,
          price: "34000000",
          acceptedCurrency: chain().addresses.stablecoin,
          deadline: String(Date.parse(offer.deadline) / 1000), // unix seconds; the answer's deadline is ISO
          requester: chain().poolSigner.address,
          chainId: String(chain().chainId),
          minSellerAmount: "33150000",
        },
      },
    });
    expect(d.typed_data.types.OfferRequest.map((f: { name: string; type: string }) => `${f.type} ${f.name}`)).toEqual([
      "address tokenContractAddress",
      "uint256 tokenId",
      "uint256 price",
      "address acceptedCurrency",
      "uint256 deadline",
      "address requester",
      "uint256 chainId",
      "uint256 minSellerAmount",
    ]);
    expect(d.typed_data.types.EIP712Domain).toBeUndefined();
    expect(d.typed_data.domain).toMatchObject({
      name: "BuybackMarketplace",
      version: "1",
      chainId: chain().chainId,
      verifyingContract: chain().addresses.marketplace,
    });
    expect(typeof d.note).toBe("string");
    await ctx.api.post(`${B}/${card.token_id}/accept/prepare`).set("X-API-Key", ctx.demo).expect(200); // no body at all

    const sig = await sign(u, d.typed_data);
    expect((await accept(card.token_id, {}).expect(400)).body.error).toBe("invalid_receiver_signature");
    expect((await accept(card.token_id, { receiver_signature: "0x1234" }).expect(400)).body.error).toBe(
      "invalid_receiver_signature",
    );
    const unapproved = await accept(card.token_id, { receiver_signature: sig }).expect(409);
    expect(unapproved.body).toMatchObject({
      error: "nft_approval_missing",
      details: { nft_approval: { approved: false, call: { data: d.nft_approval.call.data } } },
    });
    const stranger = await accept(card.token_id, { receiver_signature: await sign(user(ctx, 1), d.typed_data) }).expect(
      409,
    );
    expect(stranger.body).toMatchObject({
      error: "receiver_signature_mismatch",
      details: { receiver: u.address, recovered: user(ctx, 1).address },
    });
    // the requester's own offer signature is not the holder's acceptance
    const requester = await accept(card.token_id, { receiver_signature: offer.offer_signature }).expect(409);
    expect(requester.body).toMatchObject({
      error: "receiver_signature_mismatch",
      details: { recovered: chain().poolSigner.address },
    });

    await sendCalls(ctx, u, [d.nft_approval.call]);
    expect((await prepare(card.token_id).expect(200)).body.data.nft_approval).toEqual({
      approved: true,
      holder_owns_token: true,
      call: null,
    });
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: false }).expect(200);
    expect((await accept(card.token_id, { receiver_signature: sig }).expect(503)).body.error).toBe("relayer_disabled");
    await ctx.api.post("/_emulator/mystery/relayer").send({ enabled: true }).expect(200);

    const eth = await chain().publicClient.getBalance({ address: u.address });
    const usdcBefore = await chain().publicClient.readContract({
      address: chain().addresses.stablecoin,
      abi: usdStablecoinAbi,
      functionName: "balanceOf",
      args: [u.address],
    });
    const res = await accept(card.token_id, { receiver_signature: sig }).expect(200);
    expect(res.body.data).toMatchObject({
      offer_id: offer.offer_id,
      token_id: card.token_id,
      receiver: u.address,
      requester: chain().poolSigner.address,
      status: "submitted",
      price_usdc: "34.000000",
      seller_receives_usdc: "33.150000",
    });
    expect(res.body.data.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const tx = await chain().publicClient.getTransactionReceipt({ hash: res.body.data.transaction_hash });
    expect(tx.from.toLowerCase()).toBe(chain().relayer.address.toLowerCase());
    expect(await ownerOf(card.token_id)).toBe(chain().poolSigner.address);
    expect(await chain().publicClient.getBalance({ address: u.address })).toBe(eth); // the relayer paid the gas
    const usdcAfter = await chain().publicClient.readContract({
      address: chain().addresses.stablecoin,
      abi: usdStablecoinAbi,
      functionName: "balanceOf",
      args: [u.address],
    });
    expect(usdcAfter - usdcBefore).toBe(33_150_000n);

    await ctx.emu.clock.advance(1);
    const confirmed = ctx.events.filter((e) => e.type === "buyback.confirmed");
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]!.data).toMatchObject({
      offer_id: offer.offer_id,
      status: "accepted",
      seller: u.address,
      seller_receives_usdc: "33.150000",
      transaction_hash: res.body.data.transaction_hash,
    });
    expect((await prepare(card.token_id).expect(404)).body.error).toBe("no_active_offer");
    expect((await accept(card.token_id, { receiver_signature: sig }).expect(404)).body.error).toBe("no_active_offer");
  });

  it("a frozen card: prepare shows transfer_frozen, accept → 409 accept_simulation_failed (TokenFrozen)", async () => {
    const u = user(ctx, 0);
    const { card } = await offered(0);
    const d = (await prepare(card.token_id).expect(200)).body.data;
    await sendCalls(ctx, u, [d.nft_approval.call]);
    const sig = await sign(u, d.typed_data);
    await sendCalls(ctx, u, [
      {
        to: chain().addresses.cardNft,
        data: encodeFunctionData({
          abi: cardNftAbi,
          functionName: "initiateBurn",
          args: [BigInt(card.token_id), BURN_TYPES.GRADING],
        }),
      },
    ]);
    expect((await prepare(card.token_id).expect(200)).body.data.transfer_frozen).toMatchObject({
      frozen: true,
      burn_type: "GRADING",
      cancel_call: null,
    });
    const res = await accept(card.token_id, { receiver_signature: sig }).expect(409);
    expect(res.body).toMatchObject({ error: "accept_simulation_failed", details: { reason: "TokenFrozen" } });
    expect(await ownerOf(card.token_id)).toBe(u.address);
  });

  it("no_active_offer: no offer, a non-numeric token, an expired offer; TIER keys 403; tenant 403", async () => {
    expect((await prepare("424242").expect(404)).body.error).toBe("no_active_offer");
    expect((await prepare("abc").expect(404)).body.error).toBe("no_active_offer");
    const { card } = await offered(0);
    await prepare(card.token_id).expect(200);
    await ctx.emu.clock.advance(24 * 60 * 60 * 1000 + 2000);
    expect((await prepare(card.token_id).expect(404)).body.error).toBe("no_active_offer");
    expect((await prepare(card.token_id, ctx.revenueShare).expect(403)).body.error).toBe("not_pool_partner");
    expect(
      (await accept(card.token_id, { receiver_signature: `0x${"11".repeat(65)}` }, ctx.revenueShare).expect(403)).body
        .error,
    ).toBe("not_pool_partner");
    expectError(await prepare(card.token_id, ctx.tenant), 403, "Insufficient permissions");
  });
});
