import { describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex } from "viem";
import { BURN_TYPES, cardNftAbi, ItemType, type Chain, type FixtureAccount } from "../../chain/index.ts";
import { expectRevert, ownerOf, write, useChain } from "./helpers.ts";

let chain: Chain;
let alice: FixtureAccount;
let bob: FixtureAccount;
let tokenId: bigint;

const read = (functionName: string, args: readonly unknown[]) =>
  chain.publicClient.readContract({
    address: chain.addresses.cardNft,
    abi: cardNftAbi,
    functionName: functionName as any,
    args: args as any,
  }) as Promise<any>;
const nft = (from: FixtureAccount, fn: string, args: readonly unknown[]) =>
  write(chain, from, chain.addresses.cardNft, cardNftAbi, fn, args);

useChain(async (c) => {
  chain = c;
  [alice, bob] = chain.endUsers as [FixtureAccount, FixtureAccount];
  await nft(chain.operator, "grantRole", [keccak256(toHex("MINTER_ROLE")), chain.operator.address]);
  const receipt = await nft(chain.operator, "mint", [alice.address, ItemType.GRADED_CARD, "base1-4", 125_000_000n]);
  tokenId = parseEventLogs({ abi: cardNftAbi, eventName: "ItemMinted", logs: receipt.logs })[0]!.args.tokenId;
});

describe("CardNFT", () => {
  it("stores item type, card id and value per token; only minters mint", async () => {
    expect(await read("name", [])).toBe("Emulator Cards");
    expect(await read("symbol", [])).toBe("EMUC");
    const item = await read("getItem", [tokenId]);
    expect(item.itemType).toBe(ItemType.GRADED_CARD);
    expect(item.cardId).toBe("base1-4");
    expect(item.value).toBe(125_000_000n);
    expect(await ownerOf(chain, tokenId)).toBe(alice.address);
    await expectRevert(nft(alice, "mint", [alice.address, ItemType.CARD, "x", 1n]), "AccessControlUnauthorizedAccount");
  });

  it("initiateBurn freezes transfers and exposes the burn type; cancelBurn unfreezes", async () => {
    expect(await read("getItemBurnType", [tokenId])).toBe(0);
    await expectRevert(nft(bob, "initiateBurn", [tokenId, BURN_TYPES.REDEEM_CARD]), "NotTokenHolder");
    await expectRevert(nft(alice, "initiateBurn", [tokenId, 0]), "InvalidBurnType");
    const receipt = await nft(alice, "initiateBurn", [tokenId, BURN_TYPES.REDEEM_CARD]);
    expect(parseEventLogs({ abi: cardNftAbi, eventName: "BurnInitiated", logs: receipt.logs })[0]!.args).toMatchObject({
      tokenId,
      holder: alice.address,
      burnType: 1,
    });
    expect(await read("getItemBurnType", [tokenId])).toBe(BURN_TYPES.REDEEM_CARD);
    expect(await read("isTransferFrozen", [tokenId])).toBe(true);
    await expectRevert(nft(alice, "initiateBurn", [tokenId, BURN_TYPES.REDEEM_CARD]), "BurnAlreadyPending");

    const args = await expectRevert(nft(alice, "transferFrom", [alice.address, bob.address, tokenId]), "TokenFrozen");
    expect(args).toEqual([tokenId, 1]);
    await nft(alice, "setApprovalForAll", [bob.address, true]);
    await expectRevert(nft(bob, "safeTransferFrom", [alice.address, bob.address, tokenId]), "TokenFrozen");

    await expectRevert(nft(alice, "cancelBurn", [tokenId]), "AccessControlUnauthorizedAccount");
    await nft(chain.operator, "cancelBurn", [tokenId]);
    expect(await read("getItemBurnType", [tokenId])).toBe(0);
    await nft(alice, "transferFrom", [alice.address, bob.address, tokenId]);
    expect(await ownerOf(chain, tokenId)).toBe(bob.address);
  });

  it("finalizeBurn (operator, at dispatch) burns the token and keeps the burn type readable", async () => {
    await expectRevert(nft(chain.operator, "finalizeBurn", [tokenId]), "NoPendingBurn");
    await nft(alice, "initiateBurn", [tokenId, BURN_TYPES.REDEEM_CARD]);
    await expectRevert(nft(alice, "finalizeBurn", [tokenId]), "AccessControlUnauthorizedAccount");
    const receipt = await nft(chain.operator, "finalizeBurn", [tokenId]);
    expect(parseEventLogs({ abi: cardNftAbi, eventName: "BurnFinalized", logs: receipt.logs })).toHaveLength(1);
    expect(await read("isBurned", [tokenId])).toBe(true);
    expect(await read("exists", [tokenId])).toBe(false);
    expect(await read("getItemBurnType", [tokenId])).toBe(BURN_TYPES.REDEEM_CARD);
    expect(await read("burnState", [tokenId])).toEqual([1, false, true]);
    await expectRevert(read("ownerOf", [tokenId]), "ERC721NonexistentToken");
    expect(await read("balanceOf", [alice.address])).toBe(0n);
  });

  it("lets the operator set the card id", async () => {
    await expectRevert(nft(alice, "setCardId", [tokenId, "hack"]), "AccessControlUnauthorizedAccount");
    await nft(chain.operator, "setCardId", [tokenId, "base1-2"]);
    expect((await read("getItem", [tokenId])).cardId).toBe("base1-2");
  });
});
