import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createPublicClient, createWalletClient, http, parseEventLogs, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { cardNftAbi, mysteryPoolAbi, usdStablecoinAbi, vrfRequestIdsFromLogs } from "../../chain/index.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// The emulator's chain as a partner's wallet sees it: over JSON-RPC on loopback.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
beforeAll(async () => ({ emu, api, close } = await startEmulator({ chain: { rpcPort: 0 } })));
afterAll(() => close());

async function wallet() {
  const info = (await api.get("/_emulator/chain").expect(200)).body.data;
  const chain = {
    id: info.chainId,
    name: "emulator",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
  } as const;
  const account = privateKeyToAccount(info.accounts[0].private_key as Hex);
  return {
    info,
    account,
    pub: createPublicClient({ chain, transport: http(info.rpcUrl) }),
    wal: createWalletClient({ chain, account, transport: http(info.rpcUrl) }),
  };
}

/** approve + purchase tier 1 from the first end-user wallet; returns the VRF request id. */
async function purchaseTier1(): Promise<bigint> {
  const { info, pub, wal } = await wallet();
  const price = 25_000_000n;
  await pub.waitForTransactionReceipt({
    hash: await wal.writeContract({
      address: info.contracts.stablecoin,
      abi: usdStablecoinAbi,
      functionName: "approve",
      args: [info.contracts.mysteryPool, price],
    }),
  });
  const hash = await wal.writeContract({
    address: info.contracts.mysteryPool,
    abi: mysteryPoolAbi,
    functionName: "purchase",
    args: [1],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  const [id] = vrfRequestIdsFromLogs(receipt.logs);
  expect(id).toBeTypeOf("bigint");
  return id;
}

describe("/_emulator/chain", () => {
  it("reports rpcUrl, chain id, contract addresses and funded fixture accounts with their keys", async () => {
    const { info, pub, account } = await wallet();
    expect(info.chainId).toBe(31337);
    for (const name of ["stablecoin", "cardNft", "mysteryPool", "vrfCoordinator", "marketplace"])
      expect(info.contracts[name]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.accounts.length).toBeGreaterThanOrEqual(5);
    const usdc = await pub.readContract({
      address: info.contracts.stablecoin,
      abi: usdStablecoinAbi,
      functionName: "balanceOf",
      args: [account.address],
    });
    expect(usdc).toBeGreaterThan(0n);
    expect(await pub.getChainId()).toBe(31337);
  });

  it("faucet funds any address with USDC and ETH; bad input is 400", async () => {
    const { info, pub } = await wallet();
    const to = "0x000000000000000000000000000000000000bEEF";
    const res = await api.post("/_emulator/chain/faucet").send({ address: to, usdc: "12.5", eth: "0.25" }).expect(200);
    expect(res.body.data).toMatchObject({ usdc: "12500000", eth: "250000000000000000" });
    expect(
      await pub.readContract({
        address: info.contracts.stablecoin,
        abi: usdStablecoinAbi,
        functionName: "balanceOf",
        args: [to],
      }),
    ).toBe(12_500_000n);
    expect(await pub.getBalance({ address: to })).toBe(250_000_000_000_000_000n);
    expect((await api.post("/_emulator/chain/faucet").send({ address: "0x123" }).expect(400)).body.error).toBe(
      "invalid_address",
    );
    expect((await api.post("/_emulator/chain/faucet").send({ address: to, usdc: "-1" }).expect(400)).body.error).toBe(
      "invalid_value",
    );
  });

  it("block time follows the emulator's clock", async () => {
    const { pub } = await wallet();
    await emu.clock.advance(86_400_000);
    const block = await pub.getBlock({ blockTag: "latest" });
    expect(Number(block.timestamp)).toBe(Math.floor(emu.clock.now() / 1000));
  });
});

describe("VRF", () => {
  it("auto mode reveals a purchase after the delay on the virtual clock", async () => {
    const id = await purchaseTier1();
    expect((await api.get("/_emulator/vrf").expect(200)).body.data.pending).toContain(String(id));
    await emu.clock.advance(4_000);
    expect((await api.get("/_emulator/vrf")).body.data.pending).toContain(String(id));
    await emu.clock.advance(1_000);
    expect((await api.get("/_emulator/vrf")).body.data.pending).not.toContain(String(id));
  });

  it("manual mode waits for POST /_emulator/vrf/fulfill, which mints the items to the buyer", async () => {
    await api.post("/_emulator/vrf").send({ mode: "manual" }).expect(200);
    try {
      const id = await purchaseTier1();
      await emu.clock.advance(60_000);
      expect((await api.get("/_emulator/vrf")).body.data.pending).toContain(String(id));
      const res = await api
        .post("/_emulator/vrf/fulfill")
        .send({ request_id: String(id) })
        .expect(200);
      expect(res.body.data).toMatchObject({ request_id: String(id), success: true });
      const { info, pub, account } = await wallet();
      const receipt = await pub.getTransactionReceipt({ hash: res.body.data.tx_hash });
      const revealed = parseEventLogs({ abi: mysteryPoolAbi, logs: receipt.logs, eventName: "PurchaseRevealed" });
      expect(revealed).toHaveLength(1);
      for (const tokenId of revealed[0].args.tokenIds)
        expect(
          await pub.readContract({
            address: info.contracts.cardNft,
            abi: cardNftAbi,
            functionName: "ownerOf",
            args: [tokenId],
          }),
        ).toBe(account.address);
      expect((await api.post("/_emulator/vrf/fulfill").send({ request_id: "999999" }).expect(404)).body.error).toBe(
        "not_found",
      );
      expect((await api.post("/_emulator/vrf/fulfill").send({}).expect(409)).body.error).toBe("nothing_pending");
    } finally {
      await api.post("/_emulator/vrf").send({ mode: "auto" }).expect(200);
    }
  });
});

describe("snapshot and restore cover the chain", () => {
  it("HTTP state and chain state roll back together; reset returns the chain to its deployed state", async () => {
    const { info, pub } = await wallet();
    const to = "0x000000000000000000000000000000000000cafe";
    const bal = () =>
      pub.readContract({
        address: info.contracts.stablecoin,
        abi: usdStablecoinAbi,
        functionName: "balanceOf",
        args: [to],
      });
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id;
    await api.post("/_emulator/keys").send({ kind: "partner", label: "after snapshot" }).expect(201);
    await api.post("/_emulator/chain/faucet").send({ address: to, usdc: "5" }).expect(200);
    expect(await bal()).toBe(5_000_000n);
    await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    expect(await bal()).toBe(0n);
    const labels = (await api.get("/_emulator/keys")).body.data.keys.map((k: { label: string }) => k.label);
    expect(labels).not.toContain("after snapshot");
    await api.post("/_emulator/chain/faucet").send({ address: to, usdc: "7" }).expect(200);
    await api.post("/_emulator/reset").expect(200);
    expect(await bal()).toBe(0n);
  });
});

describe("without a chain", () => {
  it("chain endpoints answer 503 chain_unavailable with a clear message", async () => {
    const other = await startEmulator();
    try {
      const res = await other.api.get("/_emulator/chain").expect(503);
      expect(res.body).toMatchObject({ success: false, error: "chain_unavailable" });
      // Said to any caller (CLI or in-process), so without a flag or an option name.
      expect(res.body.message).toBe(
        "The local chain is not running (this emulator was started without one); start it with the chain",
      );
      expectError(await other.api.post("/_emulator/vrf/fulfill").send({}), 503, "chain_unavailable");
    } finally {
      await other.close();
    }
  });
});

describe("numbers the chain takes", () => {
  // Issue 37 item 12's class: a number past what a uint256 holds is the caller's 400, never the node's 500.
  const huge = "1" + "0".repeat(80);

  for (const [what, path, body] of [
    [
      "a faucet amount past 2^256 base units",
      "/_emulator/chain/faucet",
      { address: `0x${"11".repeat(20)}`, usdc: huge },
    ],
    ["a faucet ETH amount past 2^256 wei", "/_emulator/chain/faucet", { address: `0x${"11".repeat(20)}`, eth: huge }],
    ["VRF words past 2^256", "/_emulator/vrf/fulfill", { words: [huge] }],
    ["a VRF request id past 2^256", "/_emulator/vrf/fulfill", { request_id: huge }],
  ] as const)
    it(`${what}: 400 invalid_value`, async () => {
      const err = expectError(await api.post(path).send(body), 400, "invalid_value");
      expect(err.message).toMatch(/usdc|eth|words|request_id/);
    });
});
