import { describe, expect, it } from "vitest";
import { hashTypedData, keccak256, parseEventLogs, toHex, type Hex } from "viem";
import {
  BURN_TYPES,
  buybackMarketplaceAbi,
  cardNftAbi,
  ItemType,
  type Chain,
  type FixtureAccount,
  marketplaceDomain,
  offerRequestTypes,
} from "../../chain/index.ts";
import { blockTime, expectRevert, ownerOf, usdcBalance, write, useChain } from "./helpers.ts";

let chain: Chain;
let alice: FixtureAccount;
let bob: FixtureAccount;
let tokenId: bigint;

const offerTypes = offerRequestTypes;
type Offer = {
  tokenContractAddress: `0x${string}`;
  tokenId: bigint;
  price: bigint;
  acceptedCurrency: `0x${string}`;
  deadline: bigint;
  requester: `0x${string}`;
  chainId: bigint;
  minSellerAmount: bigint;
};

const domain = () => marketplaceDomain(chain);
const market = (from: FixtureAccount, fn: string, args: readonly unknown[]) =>
  write(chain, from, chain.addresses.marketplace, buybackMarketplaceAbi, fn, args);

async function offer(overrides: Partial<Offer> = {}): Promise<Offer> {
  return {
    tokenContractAddress: chain.addresses.cardNft,
    tokenId,
    price: 100_000_000n,
    acceptedCurrency: chain.addresses.stablecoin,
    deadline: (await blockTime(chain)) + 3600n,
    requester: chain.poolSigner.address,
    chainId: BigInt(chain.chainId),
    minSellerAmount: 97_500_000n,
    ...overrides,
  };
}
const sign = (o: Offer, signer: FixtureAccount = chain.poolSigner): Promise<Hex> =>
  chain
    .walletClientFor(signer)
    .signTypedData({ domain: domain(), types: offerTypes, primaryType: "OfferRequest", message: o });

useChain(async (c) => {
  chain = c;
  [alice, bob] = chain.endUsers as [FixtureAccount, FixtureAccount];
  await write(chain, chain.operator, chain.addresses.cardNft, cardNftAbi, "grantRole", [
    keccak256(toHex("MINTER_ROLE")),
    chain.operator.address,
  ]);
  const r = await write(chain, chain.operator, chain.addresses.cardNft, cardNftAbi, "mint", [
    alice.address,
    ItemType.CARD,
    "base1-4",
    120_000_000n,
  ]);
  tokenId = parseEventLogs({ abi: cardNftAbi, eventName: "ItemMinted", logs: r.logs })[0]!.args.tokenId;
  await write(chain, alice, chain.addresses.cardNft, cardNftAbi, "setApprovalForAll", [
    chain.addresses.marketplace,
    true,
  ]);
});

describe("BuybackMarketplace", () => {
  it("acceptOffer moves the NFT to the requester and pays price − 2.5 % fee from the requester's allowance", async () => {
    const o = await offer();
    const sig = await sign(o);
    const offerHash = hashTypedData({ domain: domain(), types: offerTypes, primaryType: "OfferRequest", message: o });
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.marketplace,
        abi: buybackMarketplaceAbi,
        functionName: "hashOffer",
        args: [o],
      }),
    ).toBe(offerHash);
    const [sellerBefore, requesterBefore, treasuryBefore] = await Promise.all(
      [alice, chain.poolSigner, chain.treasury].map((a) => usdcBalance(chain, a.address)),
    );

    const receipt = await market(alice, "acceptOffer", [o, sig]);
    const [ev] = parseEventLogs({ abi: buybackMarketplaceAbi, eventName: "OfferAccepted", logs: receipt.logs });
    expect(ev!.args).toEqual({
      offerHash,
      tokenId,
      seller: alice.address,
      requester: chain.poolSigner.address,
      price: 100_000_000n,
      sellerAmount: 97_500_000n,
      fee: 2_500_000n,
    });
    expect(await ownerOf(chain, tokenId)).toBe(chain.poolSigner.address);
    expect(await usdcBalance(chain, alice.address)).toBe(sellerBefore! + 97_500_000n);
    expect(await usdcBalance(chain, chain.poolSigner.address)).toBe(requesterBefore! - 100_000_000n);
    expect(await usdcBalance(chain, chain.treasury.address)).toBe(treasuryBefore! + 2_500_000n);
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.marketplace,
        abi: buybackMarketplaceAbi,
        functionName: "offerUsed",
        args: [offerHash],
      }),
    ).toBe(true);
  });

  it("rounds the fee down and follows the owner-set fee", async () => {
    await expectRevert(market(alice, "setFee", [500, chain.treasury.address]), "OwnableUnauthorizedAccount");
    await expectRevert(market(chain.operator, "setFee", [1001, chain.treasury.address]), "FeeTooHigh");
    await market(chain.operator, "setFee", [333, chain.treasury.address]);
    const o = await offer({ price: 12_345_678n, minSellerAmount: 0n });
    const receipt = await market(alice, "acceptOffer", [o, await sign(o)]);
    const [ev] = parseEventLogs({ abi: buybackMarketplaceAbi, eventName: "OfferAccepted", logs: receipt.logs });
    const fee = (12_345_678n * 333n) / 10_000n; // 411_111
    expect(ev!.args.fee).toBe(fee);
    expect(ev!.args.sellerAmount).toBe(12_345_678n - fee);
  });

  it("rejects expired, reused, badly signed, tampered and wrong-chain offers", async () => {
    const now = await blockTime(chain);
    const expired = await offer({ deadline: now - 1n });
    await expectRevert(market(alice, "acceptOffer", [expired, await sign(expired)]), "OfferExpired");

    const o = await offer();
    await expectRevert(market(alice, "acceptOffer", [o, await sign(o, alice)]), "InvalidOfferSignature");
    const sig = await sign(o);
    await expectRevert(market(alice, "acceptOffer", [{ ...o, price: o.price + 1n }, sig]), "InvalidOfferSignature");
    const wrongChain = await offer({ chainId: 8453n });
    await expectRevert(market(alice, "acceptOffer", [wrongChain, await sign(wrongChain)]), "WrongChain");

    await market(alice, "acceptOffer", [o, sig]);
    // the requester sends the card back; the same offer still cannot be reused
    await write(chain, chain.poolSigner, chain.addresses.cardNft, cardNftAbi, "transferFrom", [
      chain.poolSigner.address,
      alice.address,
      tokenId,
    ]);
    await expectRevert(market(alice, "acceptOffer", [o, sig]), "OfferAlreadyUsed");
  });

  it("rejects frozen tokens (pending burn), non-holders and too-low seller amounts; requester can cancel", async () => {
    const o = await offer();
    const sig = await sign(o);
    await expectRevert(market(bob, "acceptOffer", [o, sig]), "NotTokenHolder");
    const tooHigh = await offer({ minSellerAmount: 97_500_001n });
    await expectRevert(market(alice, "acceptOffer", [tooHigh, await sign(tooHigh)]), "SellerAmountTooLow");

    const snap = await chain.snapshot();
    await write(chain, alice, chain.addresses.cardNft, cardNftAbi, "initiateBurn", [tokenId, BURN_TYPES.REDEEM_CARD]);
    await expectRevert(market(alice, "acceptOffer", [o, sig]), "TokenFrozen");
    await chain.revert(snap);

    await expectRevert(market(alice, "cancelOffer", [o]), "NotRequester");
    await market(chain.poolSigner, "cancelOffer", [o]);
    await expectRevert(market(alice, "acceptOffer", [o, sig]), "OfferAlreadyUsed");
  });

  it("acceptOfferFor: a relayer submits with the holder's own signature of the OfferRequest", async () => {
    const o = await offer();
    const sig = await sign(o);
    // The holder signs the same OfferRequest typed data as the requester (docs/reference/live-service.md “Buyback offers and the pool wallet”).
    const badReceiverSig = await sign(o, bob);
    await expectRevert(
      market(chain.relayer, "acceptOfferFor", [o, sig, alice.address, badReceiverSig]),
      "InvalidReceiverSignature",
    );
    // The requester's signature is no acceptance by the holder either.
    await expectRevert(
      market(chain.relayer, "acceptOfferFor", [o, sig, alice.address, sig]),
      "InvalidReceiverSignature",
    );
    const receiverSig = await sign(o, alice);
    const before = await usdcBalance(chain, alice.address);
    await market(chain.relayer, "acceptOfferFor", [o, sig, alice.address, receiverSig]);
    expect(await ownerOf(chain, tokenId)).toBe(chain.poolSigner.address);
    expect(await usdcBalance(chain, alice.address)).toBe(before + 97_500_000n);
  });
});
