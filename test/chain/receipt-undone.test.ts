import { describe, expect, it } from "vitest";
import { encodeFunctionData } from "viem";
import {
  END_USERS,
  TxUndoneError,
  usdStablecoinAbi,
  waitForReceipt,
  type Chain,
  type FixtureAccount,
} from "../../chain/index.ts";
import { useChain } from "./helpers.ts";

// A receipt waited for across a restore: the transaction was taken back with the chain, so no receipt will
// come. The wait ends at once with TxUndoneError instead of polling out its 60 s (a VRF fulfilment racing a
// restore hung that long, issue 37 item 1).

let chain: Chain;
const from: FixtureAccount = END_USERS[4]!;
const to: FixtureAccount = END_USERS[5]!;
useChain((c) => {
  chain = c;
});

describe("a receipt wait across a revert", () => {
  it("ends with TxUndoneError once the chain was taken back, and waits as before when it was not", async () => {
    const snapshot = await chain.snapshot();
    const since = chain.rollbacks();
    const data = encodeFunctionData({ abi: usdStablecoinAbi, functionName: "transfer", args: [to.address, 1n] });
    const hash = await chain.walletClientFor(from).sendTransaction({ to: chain.addresses.stablecoin, data });
    await chain.revert(snapshot);
    expect(chain.rollbacks()).toBe(since + 1);
    const waited = waitForReceipt(chain.publicClient, hash, () => chain.rollbacks() !== since);
    await expect(waited).rejects.toBeInstanceOf(TxUndoneError);
    await expect(waited).rejects.toThrow(/undone: the chain was taken back/);
    // Not taken back: the mined receipt, at once.
    const again = await chain.walletClientFor(from).sendTransaction({ to: chain.addresses.stablecoin, data });
    const now = chain.rollbacks();
    expect((await waitForReceipt(chain.publicClient, again, () => chain.rollbacks() !== now)).status).toBe("success");
  });
});
