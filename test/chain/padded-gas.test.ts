import { describe, expect, it } from "vitest";
import { encodeFunctionData, maxUint256 } from "viem";
import {
  END_USERS,
  instantPackAbi,
  paddedGas,
  sendAndWait,
  usdStablecoinAbi,
  type Chain,
  type FixtureAccount,
} from "../../chain/index.ts";
import { whyReverted } from "../../harness/wallet.ts";
import { useChain } from "./helpers.ts";

// A purchase's gas depends on state another account can change between the estimate and the block: a VRF
// fulfilment mined in between makes the next request's storage writes dearer. An exact estimate then runs out of
// gas (the flake CI met in sandbox mode, on a real-time clock); every sender pads its limit (chain/send.ts).

let chain: Chain;
const user: FixtureAccount = END_USERS[3]!;
useChain((c) => {
  chain = c;
});

const buy = () =>
  encodeFunctionData({
    abi: instantPackAbi,
    functionName: "purchaseInstantOpenFor",
    args: [1, user.address, maxUint256],
  });

/** A pending request, then a second purchase's gas estimated before that request is fulfilled. */
async function estimateBeforeFulfilment(): Promise<bigint> {
  const approve = encodeFunctionData({
    abi: usdStablecoinAbi,
    functionName: "approve",
    args: [chain.addresses.instantPack, maxUint256],
  });
  expect((await sendAndWait(chain, user, { to: chain.addresses.stablecoin, data: approve })).status).toBe("success");
  expect((await sendAndWait(chain, user, { to: chain.addresses.instantPack, data: buy() })).status).toBe("success");
  const estimate = await chain.publicClient.estimateGas({
    account: user.address,
    to: chain.addresses.instantPack,
    data: buy(),
  });
  const [pending] = await chain.pendingVrfRequests();
  expect((await chain.fulfillVrf(pending)).success).toBe(true);
  return estimate;
}

describe("gas limits with headroom", () => {
  it("an exact estimate taken before a fulfilment runs out of gas once the fulfilment is mined first", async () => {
    const estimate = await estimateBeforeFulfilment();
    const receipt = await sendAndWait(chain, user, { to: chain.addresses.instantPack, data: buy(), gas: estimate });
    expect(receipt.status).toBe("reverted");
    expect(receipt.gasUsed).toBe(estimate);
    expect(
      await whyReverted(chain.publicClient, user.address, { to: chain.addresses.instantPack, data: buy() }, receipt),
    ).toBe(`out of gas (used all ${estimate} of its limit)`);
  });

  it("the padded limit (a quarter over the estimate) mines the same purchase", async () => {
    const estimate = await estimateBeforeFulfilment();
    const padded = await paddedGas(
      { estimateGas: async () => estimate },
      { account: user.address, to: chain.addresses.instantPack },
    );
    expect(padded).toBe(estimate + estimate / 4n);
    const receipt = await sendAndWait(chain, user, { to: chain.addresses.instantPack, data: buy(), gas: padded });
    expect(receipt.status).toBe("success");
    expect(receipt.gasUsed).toBeGreaterThan(estimate);
  });

  it("sendAndWait pads by itself when no limit is given, and the fulfilled race then mines", async () => {
    await estimateBeforeFulfilment();
    const estimate = await chain.publicClient.estimateGas({
      account: user.address,
      to: chain.addresses.instantPack,
      data: buy(),
    });
    const receipt = await sendAndWait(chain, user, { to: chain.addresses.instantPack, data: buy() });
    expect(receipt.status).toBe("success");
    expect((await chain.publicClient.getTransaction({ hash: receipt.transactionHash })).gas).toBe(
      estimate + estimate / 4n,
    );
  });

  it("a wallet's revert names the contract's error, replayed on the state before its block", async () => {
    const soldOut = encodeFunctionData({
      abi: instantPackAbi,
      functionName: "purchaseInstantOpenFor",
      args: [4, user.address, maxUint256],
    });
    const call = { to: chain.addresses.instantPack, data: soldOut };
    const receipt = await sendAndWait(chain, user, { ...call, gas: 300_000n });
    expect(receipt.status).toBe("reverted");
    expect(await whyReverted(chain.publicClient, user.address, call, receipt)).toBe("SoldOut(4)");
  });
});
