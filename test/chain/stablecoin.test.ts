import { describe, expect, it } from "vitest";
import { hashDomain, maxUint256, parseEventLogs, parseSignature, publicActions, type Hex } from "viem";
import { ExactEvmScheme as ExactEvmClient } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmFacilitator } from "@x402/evm/exact/facilitator";
import { toClientEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import {
  transferWithAuthorizationTypes,
  usdStablecoinAbi,
  type Chain,
  type FixtureAccount,
} from "../../chain/index.ts";
import { blockTime, expectRevert, hex32, usdcBalance, write, useChain } from "./helpers.ts";

let chain: Chain;
let alice: FixtureAccount;
let bob: FixtureAccount;

const transferTypes = transferWithAuthorizationTypes;

function domain() {
  return {
    name: "USD Coin",
    version: "2",
    chainId: chain.chainId,
    verifyingContract: chain.addresses.stablecoin,
  } as const;
}

async function signTransfer(
  signer: FixtureAccount,
  msg: { from: `0x${string}`; to: `0x${string}`; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex },
) {
  return chain
    .walletClientFor(signer)
    .signTypedData({ domain: domain(), types: transferTypes, primaryType: "TransferWithAuthorization", message: msg });
}

useChain(async (c) => {
  chain = c;
  [alice, bob] = chain.endUsers as [FixtureAccount, FixtureAccount];
});

describe("USDStablecoin", () => {
  it("has USDC metadata and the EIP-712 domain {USD Coin, 2}", async () => {
    const read = (functionName: any) =>
      chain.publicClient.readContract({ address: chain.addresses.stablecoin, abi: usdStablecoinAbi, functionName });
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("decimals")).toBe(6);
    expect(await read("version")).toBe("2");
    expect(await read("DOMAIN_SEPARATOR")).toBe(
      hashDomain({
        domain: { ...domain(), chainId: BigInt(chain.chainId) },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
    expect(await usdcBalance(chain, alice.address)).toBe(10_000_000_000n);
  });

  it("restricts mint to the owner and minters", async () => {
    await expectRevert(
      write(chain, alice, chain.addresses.stablecoin, usdStablecoinAbi, "mint", [alice.address, 1n]),
      "NotMinter",
    );
    await write(chain, chain.operator, chain.addresses.stablecoin, usdStablecoinAbi, "setMinter", [
      alice.address,
      true,
    ]);
    await write(chain, alice, chain.addresses.stablecoin, usdStablecoinAbi, "mint", [bob.address, 5n]);
    expect(await usdcBalance(chain, bob.address)).toBe(10_000_000_005n);
  });

  describe("EIP-2612 permit", () => {
    const permitTypes = {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    } as const;
    async function signPermit(
      signer: FixtureAccount,
      owner: `0x${string}`,
      value: bigint,
      nonce: bigint,
      deadline: bigint,
    ) {
      const sig = await chain.walletClientFor(signer).signTypedData({
        domain: domain(),
        types: permitTypes,
        primaryType: "Permit",
        message: { owner, spender: bob.address, value, nonce, deadline },
      });
      return parseSignature(sig);
    }

    it("sets the allowance and consumes the nonce; a replay fails", async () => {
      const deadline = (await blockTime(chain)) + 3600n;
      const { v, r, s } = await signPermit(alice, alice.address, 123n, 0n, deadline);
      const args = [alice.address, bob.address, 123n, deadline, Number(v), r, s];
      await write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "permit", args);
      expect(
        await chain.publicClient.readContract({
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "allowance",
          args: [alice.address, bob.address],
        }),
      ).toBe(123n);
      expect(
        await chain.publicClient.readContract({
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "nonces",
          args: [alice.address],
        }),
      ).toBe(1n);
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "permit", args),
        "ERC2612InvalidSigner",
      );
    });

    it("rejects an expired deadline and a wrong signer", async () => {
      const now = await blockTime(chain);
      const expired = await signPermit(alice, alice.address, 1n, 0n, now - 1n);
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "permit", [
          alice.address,
          bob.address,
          1n,
          now - 1n,
          Number(expired.v),
          expired.r,
          expired.s,
        ]),
        "ERC2612ExpiredSignature",
      );
      const forged = await signPermit(bob, alice.address, 1n, 0n, now + 100n);
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "permit", [
          alice.address,
          bob.address,
          1n,
          now + 100n,
          Number(forged.v),
          forged.r,
          forged.s,
        ]),
        "ERC2612InvalidSigner",
      );
    });
  });

  describe("EIP-3009", () => {
    async function auth(
      overrides: Partial<{ value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }> = {},
    ) {
      const now = await blockTime(chain);
      return {
        from: alice.address,
        to: bob.address,
        value: 2_500_000n,
        validAfter: now - 10n,
        validBefore: now + 3600n,
        nonce: hex32(7),
        ...overrides,
      };
    }
    const args = (m: Awaited<ReturnType<typeof auth>>) =>
      [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce] as const;

    it("transferWithAuthorization (bytes signature) moves funds, marks the nonce, emits AuthorizationUsed", async () => {
      const m = await auth();
      const sig = await signTransfer(alice, m);
      expect(
        await chain.publicClient.readContract({
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "authorizationState",
          args: [alice.address, m.nonce],
        }),
      ).toBe(false);
      // Anyone (here: the treasury as facilitator) can submit.
      const receipt = await write(
        chain,
        chain.treasury,
        chain.addresses.stablecoin,
        usdStablecoinAbi,
        "transferWithAuthorization",
        [...args(m), sig],
      );
      const used = parseEventLogs({ abi: usdStablecoinAbi, eventName: "AuthorizationUsed", logs: receipt.logs });
      expect(used[0]!.args).toEqual({ authorizer: alice.address, nonce: m.nonce });
      expect(await usdcBalance(chain, bob.address)).toBe(10_000_000_000n + 2_500_000n);
      expect(await usdcBalance(chain, alice.address)).toBe(10_000_000_000n - 2_500_000n);
      expect(
        await chain.publicClient.readContract({
          address: chain.addresses.stablecoin,
          abi: usdStablecoinAbi,
          functionName: "authorizationState",
          args: [alice.address, m.nonce],
        }),
      ).toBe(true);
      // reused nonce
      await expectRevert(
        write(chain, chain.treasury, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args(m),
          sig,
        ]),
        "ERC3009UsedAuthorization",
      );
    });

    it("transferWithAuthorization (v, r, s overload) works too", async () => {
      const m = await auth({ nonce: hex32(8) });
      const { v, r, s } = parseSignature(await signTransfer(alice, m));
      await write(chain, chain.treasury, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
        ...args(m),
        Number(v),
        r,
        s,
      ]);
      expect(await usdcBalance(chain, bob.address)).toBe(10_002_500_000n);
    });

    it("rejects expired and not-yet-valid authorizations", async () => {
      const now = await blockTime(chain);
      const expired = await auth({ validAfter: 0n, validBefore: now - 1n });
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args(expired),
          await signTransfer(alice, expired),
        ]),
        "ERC3009InvalidAuthorizationTime",
      );
      const early = await auth({ validAfter: now + 600n, validBefore: now + 3600n });
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args(early),
          await signTransfer(alice, early),
        ]),
        "ERC3009InvalidAuthorizationTime",
      );
      // once the chain clock passes validAfter the same authorization goes through
      await chain.setTime(Number(now + 601n) * 1000);
      await write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
        ...args(early),
        await signTransfer(alice, early),
      ]);
    });

    it("rejects a bad signature (wrong signer or tampered value)", async () => {
      const m = await auth();
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args(m),
          await signTransfer(bob, m),
        ]),
        "ERC3009InvalidSignature",
      );
      const sig = await signTransfer(alice, m);
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args({ ...m, value: m.value + 1n }),
          sig,
        ]),
        "ERC3009InvalidSignature",
      );
    });

    it("receiveWithAuthorization must be called by the payee", async () => {
      const m = await auth();
      const sig = await chain.walletClientFor(alice).signTypedData({
        domain: domain(),
        primaryType: "ReceiveWithAuthorization",
        message: m,
        types: { ReceiveWithAuthorization: transferTypes.TransferWithAuthorization },
      });
      await expectRevert(
        write(chain, chain.treasury, chain.addresses.stablecoin, usdStablecoinAbi, "receiveWithAuthorization", [
          ...args(m),
          sig,
        ]),
        "ERC20InvalidReceiver",
      );
      await write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "receiveWithAuthorization", [
        ...args(m),
        sig,
      ]);
      expect(await usdcBalance(chain, bob.address)).toBe(10_002_500_000n);
    });

    it("cancelAuthorization burns the nonce", async () => {
      const m = await auth({ nonce: hex32(99) });
      const transferSig = await signTransfer(alice, m);
      const cancelSig = await chain.walletClientFor(alice).signTypedData({
        domain: domain(),
        primaryType: "CancelAuthorization",
        types: {
          CancelAuthorization: [
            { name: "authorizer", type: "address" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        message: { authorizer: alice.address, nonce: m.nonce },
      });
      // a cancel signed by someone else is rejected
      const badCancel = await chain.walletClientFor(bob).signTypedData({
        domain: domain(),
        primaryType: "CancelAuthorization",
        types: {
          CancelAuthorization: [
            { name: "authorizer", type: "address" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        message: { authorizer: alice.address, nonce: m.nonce },
      });
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "cancelAuthorization", [
          alice.address,
          m.nonce,
          badCancel,
        ]),
        "ERC3009InvalidSignature",
      );
      const receipt = await write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "cancelAuthorization", [
        alice.address,
        m.nonce,
        cancelSig,
      ]);
      expect(
        parseEventLogs({ abi: usdStablecoinAbi, eventName: "AuthorizationCanceled", logs: receipt.logs }),
      ).toHaveLength(1);
      await expectRevert(
        write(chain, bob, chain.addresses.stablecoin, usdStablecoinAbi, "transferWithAuthorization", [
          ...args(m),
          transferSig,
        ]),
        "ERC3009UsedAuthorization",
      );
    });
  });

  it("round-trips an x402 exact payment (official client signs, official facilitator verifies and settles)", async () => {
    const requirements = {
      scheme: "exact",
      network: `eip155:${chain.chainId}`,
      asset: chain.addresses.stablecoin,
      amount: "1500000",
      payTo: chain.treasury.address,
      maxTimeoutSeconds: 300,
      extra: { name: "USD Coin", version: "2" },
    } as any;
    const payer = chain.walletClientFor(alice);
    const client = new ExactEvmClient(toClientEvmSigner(payer.account as any, chain.publicClient as any));
    const created = await client.createPaymentPayload(2, requirements);
    const payload = {
      x402Version: 2,
      accepted: requirements,
      payload: created.payload,
      resource: { url: "http://emulator.local/x", description: "", mimeType: "application/json" },
    } as any;

    const facilitatorClient = chain.walletClientFor(chain.relayer).extend(publicActions);
    const facilitator = new ExactEvmFacilitator(
      toFacilitatorEvmSigner({ ...(facilitatorClient as any), address: chain.relayer.address }),
    );
    const verified = await facilitator.verify(payload, requirements);
    expect(verified.isValid, JSON.stringify(verified)).toBe(true);
    const before = await usdcBalance(chain, chain.treasury.address);
    const settled = await facilitator.settle(payload, requirements);
    expect(settled.success, JSON.stringify(settled)).toBe(true);
    expect(await usdcBalance(chain, chain.treasury.address)).toBe(before + 1_500_000n);
    // the same payload cannot be settled twice
    const again = await facilitator.verify(payload, requirements);
    expect(again.isValid).toBe(false);
  });
});

void maxUint256;
