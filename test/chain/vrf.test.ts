import { describe, expect, it } from "vitest";
import { encodeAbiParameters, keccak256, parseEventLogs, toEventSelector, type Hex } from "viem";
import {
  mysteryPoolAbi,
  usdStablecoinAbi,
  vrfCoordinatorMockAbi,
  type Chain,
  type FixtureAccount,
} from "../../chain/index.ts";
import { expectRevert, usdcBalance, write, useChain } from "./helpers.ts";

let chain: Chain;
let alice: FixtureAccount;

const coord = (from: FixtureAccount, fn: string, args: readonly unknown[]) =>
  write(chain, from, chain.addresses.vrfCoordinator, vrfCoordinatorMockAbi, fn, args);
const readCoord = (functionName: string, args: readonly unknown[] = []) =>
  chain.publicClient.readContract({
    address: chain.addresses.vrfCoordinator,
    abi: vrfCoordinatorMockAbi,
    functionName: functionName as any,
    args: args as any,
  }) as Promise<any>;

async function purchase(user: FixtureAccount, tierId = 1): Promise<bigint> {
  await write(chain, user, chain.addresses.stablecoin, usdStablecoinAbi, "approve", [
    chain.addresses.mysteryPool,
    10n ** 12n,
  ]);
  const receipt = await write(chain, user, chain.addresses.mysteryPool, mysteryPoolAbi, "purchase", [tierId]);
  return parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRequested", logs: receipt.logs })[0]!.args.requestId;
}

const request = (subId: bigint, numWords = 2) => [
  {
    keyHash: chain.vrf.keyHash,
    subId,
    requestConfirmations: 3,
    callbackGasLimit: 100_000,
    numWords,
    extraArgs: "0x" as Hex,
  },
];

useChain(async (c) => {
  chain = c;
  alice = chain.endUsers[0]!;
});

describe("VRFCoordinatorV2_5Mock", () => {
  it("emits Chainlink's exact event signatures", () => {
    const sig = (name: string) => vrfCoordinatorMockAbi.find((x) => x.type === "event" && x.name === name)!;
    expect(toEventSelector(sig("RandomWordsRequested") as any)).toBe(
      toEventSelector(
        "RandomWordsRequested(bytes32 indexed keyHash, uint256 requestId, uint256 preSeed, uint256 indexed subId, uint16 minimumRequestConfirmations, uint32 callbackGasLimit, uint32 numWords, bytes extraArgs, address indexed sender)",
      ),
    );
    expect(toEventSelector(sig("RandomWordsFulfilled") as any)).toBe(
      toEventSelector(
        "RandomWordsFulfilled(uint256 indexed requestId, uint256 outputSeed, uint256 indexed subId, uint96 payment, bool nativePayment, bool success, bool onlyPremium)",
      ),
    );
  });

  it("deploy funded the subscription and added the pool and the instant-pack store as consumers", async () => {
    const [balance, , , owner, consumers] = await readCoord("getSubscription", [chain.vrf.subscriptionId]);
    expect(balance).toBeGreaterThan(0n);
    expect(owner).toBe(chain.operator.address);
    expect(consumers).toEqual([chain.addresses.mysteryPool, chain.addresses.instantPack]);
  });

  it("a failing consumer callback does not revert the fulfilment: success=false, request consumed, purchase refundable", async () => {
    const requestId = await purchase(alice);
    const before = await usdcBalance(chain, alice.address);
    // deliver to a contract without rawFulfillRandomWords → the callback reverts
    const receipt = await coord(chain.vrfNode, "fulfillRandomWords", [requestId, chain.addresses.stablecoin]);
    const [ev] = parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsFulfilled", logs: receipt.logs });
    expect(ev!.args).toMatchObject({
      requestId,
      success: false,
      subId: chain.vrf.subscriptionId,
      nativePayment: false,
      onlyPremium: false,
    });
    expect(ev!.args.payment).toBeGreaterThan(0n);
    expect(await chain.pendingVrfRequests()).toEqual([]);
    await expectRevert(
      coord(chain.vrfNode, "fulfillRandomWords", [requestId, chain.addresses.mysteryPool]),
      "InvalidRequest",
    );
    await expect(chain.fulfillVrf(requestId)).rejects.toThrow(/unknown or already fulfilled/);
    expect(
      (
        await chain.publicClient.readContract({
          address: chain.addresses.mysteryPool,
          abi: mysteryPoolAbi,
          functionName: "getPurchase",
          args: [requestId],
        })
      ).status,
    ).toBe(1);
    await write(chain, chain.operator, chain.addresses.mysteryPool, mysteryPoolAbi, "refundPurchase", [requestId]);
    expect(await usdcBalance(chain, alice.address)).toBe(before + 25_000_000n);
  });

  it("reports success=false when the pool's callback runs out of gas", async () => {
    await write(chain, chain.operator, chain.addresses.mysteryPool, mysteryPoolAbi, "setVrfConfig", [
      chain.addresses.vrfCoordinator,
      chain.vrf.keyHash,
      chain.vrf.subscriptionId,
      60_000,
      3,
      false,
    ]);
    const requestId = await purchase(alice);
    const result = await chain.fulfillVrf(requestId);
    expect(result).toMatchObject({ requestId, success: false });
  });

  it("requires a known subscription, an added consumer, funds and the right word count", async () => {
    await expectRevert(coord(alice, "requestRandomWords", request(chain.vrf.subscriptionId)), "InvalidConsumer");
    await expectRevert(coord(alice, "requestRandomWords", request(999n)), "InvalidSubscription");
    await expectRevert(coord(alice, "addConsumer", [chain.vrf.subscriptionId, alice.address]), "MustBeSubOwner");
    // an unfunded subscription can request but not be fulfilled
    const r = await coord(alice, "createSubscription", []);
    const subId = parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "SubscriptionCreated", logs: r.logs })[0]!
      .args.subId;
    await coord(alice, "addConsumer", [subId, alice.address]);
    const req = await coord(alice, "requestRandomWords", request(subId));
    const requestId = parseEventLogs({
      abi: vrfCoordinatorMockAbi,
      eventName: "RandomWordsRequested",
      logs: req.logs,
    })[0]!.args.requestId;
    await expectRevert(coord(chain.vrfNode, "fulfillRandomWords", [requestId, alice.address]), "InsufficientBalance");
    await coord(alice, "fundSubscription", [subId, 10n ** 18n]);
    await expectRevert(
      coord(chain.vrfNode, "fulfillRandomWordsWithOverride", [requestId, alice.address, [1n]]),
      "InvalidRandomWords",
    );
    await expectRevert(coord(chain.vrfNode, "fulfillRandomWords", [12345n, alice.address]), "InvalidRequest");
    // an EOA consumer "succeeds" (no code to revert), like Chainlink's mock
    const ok = await coord(chain.vrfNode, "fulfillRandomWords", [requestId, alice.address]);
    expect(
      parseEventLogs({ abi: vrfCoordinatorMockAbi, eventName: "RandomWordsFulfilled", logs: ok.logs })[0]!.args.success,
    ).toBe(true);
  });

  it("fulfillRandomWords without override uses keccak256(abi.encode(requestId, i)) like Chainlink's mock", async () => {
    const start = await chain.snapshot();
    const requestId = await purchase(alice, 2);
    const receipt = await coord(chain.vrfNode, "fulfillRandomWords", [requestId, chain.addresses.mysteryPool]);
    const [revealed] = parseEventLogs({ abi: mysteryPoolAbi, eventName: "PurchaseRevealed", logs: receipt.logs });
    expect(revealed!.args.requestId).toBe(requestId);
    // same result as an explicit override with those words
    const words = [0n, 1n, 2n].map((i) =>
      BigInt(keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [requestId, i]))),
    );
    const items = parseEventLogs({ abi: mysteryPoolAbi, eventName: "ItemRevealed", logs: receipt.logs }).map((l) => [
      l.args.groupId,
      l.args.value,
    ]);
    await chain.revert(start);
    const again = await purchase(alice, 2);
    const r2 = await chain.fulfillVrf(again, words);
    const logs2 = (await chain.publicClient.getTransactionReceipt({ hash: r2.txHash })).logs;
    expect(
      parseEventLogs({ abi: mysteryPoolAbi, eventName: "ItemRevealed", logs: logs2 }).map((l) => [
        l.args.groupId,
        l.args.value,
      ]),
    ).toEqual(items);
  });

  it("fulfillVrf defaults to the oldest pending request and seed-derived words", async () => {
    const a = await purchase(alice);
    const b = await purchase(chain.endUsers[1]!);
    expect(await chain.pendingVrfRequests()).toEqual([a, b]);
    const first = await chain.fulfillVrf();
    expect(first.requestId).toBe(a);
    const [ev] = parseEventLogs({
      abi: vrfCoordinatorMockAbi,
      eventName: "RandomWordsFulfilled",
      logs: (await chain.publicClient.getTransactionReceipt({ hash: first.txHash })).logs,
    });
    expect(ev!.args.success).toBe(true);
    expect(await chain.pendingVrfRequests()).toEqual([b]);
    expect(chain.vrfWordsFor(a, 2)).toEqual(chain.vrfWordsFor(a, 2));
    expect(chain.vrfWordsFor(a, 2)).not.toEqual(chain.vrfWordsFor(b, 2));
    await chain.fulfillVrf();
    await expect(chain.fulfillVrf()).rejects.toThrow(/no pending VRF requests/);
  });

  it("fulfillPendingVrf fulfils a waiting request with the words asked for, and leaves an answered or unknown one alone", async () => {
    const a = await purchase(alice);
    const b = await purchase(chain.endUsers[1]!);
    const asked: bigint[] = [];
    const words = (id: bigint, given?: bigint[]) => async () => (asked.push(id), given);
    const first = await chain.fulfillPendingVrf(a, words(a));
    expect(first).toMatchObject({ requestId: a, success: true });
    expect(await chain.pendingVrfRequests()).toEqual([b]);
    expect(await chain.fulfillPendingVrf(a, words(a))).toBeNull();
    expect(await chain.fulfillPendingVrf(b + 100n, words(b + 100n))).toBeNull();
    expect(asked).toEqual([a]);
    const second = await chain.fulfillPendingVrf(b, words(b, [7n, 8n]));
    expect(second).toMatchObject({ requestId: b, success: true });
    expect(asked).toEqual([a, b]);
    expect(await chain.pendingVrfRequests()).toEqual([]);
  });

  it("fulfilmentOf names the transaction that fulfilled a request, as the VRF scan saw it, until blocks are taken back", async () => {
    const off = chain.onVrfRequested(() => undefined); // the scan runs for a listener (the emulator's VRF timer)
    try {
      const a = await purchase(alice);
      expect(chain.fulfilmentOf(a)).toBeNull();
      const { txHash } = await chain.fulfillVrf(a);
      expect(chain.fulfilmentOf(a)).toBe(txHash);
      const id = await chain.snapshot();
      const b = await purchase(chain.endUsers[1]!);
      expect(chain.fulfilmentOf(b)).toBeNull();
      await chain.revert(id); // the fulfilment is still mined, but after a revert what the scan saw is not trusted
      expect(chain.fulfilmentOf(a)).toBeNull();
    } finally {
      off();
    }
  });

  it("pendingVrfRequests follows the chain through fulfilments and snapshot reverts (it is read once per chain state)", async () => {
    const a = await purchase(alice);
    expect(await chain.pendingVrfRequests()).toEqual([a]);
    const before = await chain.snapshot();
    const b = await purchase(chain.endUsers[1]!);
    expect(await chain.pendingVrfRequests()).toEqual([a, b]);
    await chain.fulfillVrf(a);
    expect(await chain.pendingVrfRequests()).toEqual([b]);
    await chain.revert(before);
    expect(await chain.pendingVrfRequests()).toEqual([a]);
    await chain.fulfillVrf(a);
    expect(await chain.pendingVrfRequests()).toEqual([]);
  });

  it("onVrfRequested notifies new requests (in-process and via JSON-RPC) so the emulator can auto-fulfil", async () => {
    const seen: bigint[] = [];
    const fulfilled: Promise<unknown>[] = [];
    const off = chain.onVrfRequested((id) => {
      seen.push(id);
      fulfilled.push(chain.fulfillVrf(id));
    });
    const id1 = await purchase(alice);
    // listener already ran by the time the purchase tx hash came back
    expect(seen).toEqual([id1]);
    const results = (await Promise.all(fulfilled)) as Array<{ success: boolean }>;
    expect(results.map((r) => r.success)).toEqual([true]);
    off();
    await purchase(alice);
    expect(seen).toEqual([id1]);
  });
});
