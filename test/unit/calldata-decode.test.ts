import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi } from "viem";
import { quoteIn } from "../../contract/invariants/calldata.ts";

// The redemption calldata invariant decodes payShipping by hand (the contract loads no viem): the same quote
// viem encodes comes back, and what is no whole payShipping call is null, never a throw.

const ABI = parseAbi([
  "struct ShippingQuote { string orderId; address payer; uint256 tokenId; uint8 burnType; uint256 amount; uint256 expirationTime; }",
  "function payShipping(ShippingQuote q, bytes signature)",
  "function other(uint256 a)",
]);

const quote = (orderId: string, amount: bigint, expirationTime: bigint) => ({
  orderId,
  payer: "0x1234567890AbcdEF1234567890aBcdef12345678" as const,
  tokenId: 7n,
  burnType: 1,
  amount,
  expirationTime,
});

describe("payShipping calldata, decoded by hand", () => {
  it.each([
    ["ord_1", 12_345_678n, 1_790_000_000n, "0xdeadbeef"],
    ["", 0n, 0n, "0x"],
    [
      "ünïcödé order id that is longer than one 32-byte word of the ABI's tail",
      2n ** 255n,
      2n ** 64n,
      `0x${"ab".repeat(65)}`,
    ],
  ] as const)("gives what viem encoded: %s", (orderId, amount, expiry, signature) => {
    const data = encodeFunctionData({
      abi: ABI,
      functionName: "payShipping",
      args: [quote(orderId, amount, expiry), signature],
    });
    expect(quoteIn(data)).toEqual({
      orderId,
      payer: "0x1234567890abcdef1234567890abcdef12345678",
      amount,
      expirationTime: expiry,
    });
  });

  it("is null for another function, a cut call, odd hex and what is no string", () => {
    const data = encodeFunctionData({ abi: ABI, functionName: "payShipping", args: [quote("x", 1n, 2n), "0x"] });
    expect(quoteIn(encodeFunctionData({ abi: ABI, functionName: "other", args: [1n] }))).toBeNull();
    expect(quoteIn(data.slice(0, 74))).toBeNull();
    expect(quoteIn(data.slice(0, 10 + 64 * 8))).toBeNull(); // the tuple's head, without its order id
    expect(quoteIn(`${data}0`)).toBeNull();
    expect(quoteIn(42)).toBeNull();
  });
});
