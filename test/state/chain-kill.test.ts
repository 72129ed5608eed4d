import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, defineChain, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import request from "supertest";
import { cardNftAbi, END_USERS } from "../../chain/index.ts";
import { readStateFile } from "../../emulator/state/state-file.ts";
import { apiCall, waitFor } from "../helpers.ts";
import { launchEmulator } from "./launch.ts";

// A real `npx emulator --state FILE` with its chain, killed with SIGKILL at
// seeded random points while purchases are being made: the file always parses,
// holds every purchase (API record and chain) already written through, and the
// restarted emulator's chain is that chain: a card bought before the kill is
// redeemed and another sold back after it.

interface Run {
  url: string;
  rpcUrl: string;
  demo: string;
  revenueShare: string;
  /** Killed: a purchase still in flight gives up instead of polling a dead node. */
  dead: boolean;
  kill(): Promise<void>;
}

async function launch(stateFile: string): Promise<Run> {
  const { child, info, exited } = await launchEmulator([
    "--rpc-port",
    "0",
    "--clock",
    "manual",
    "--vrf",
    "manual",
    "--state",
    stateFile,
  ]);
  const partner = (re: RegExp) => info.keys.find((k) => k.kind === "partner" && re.test(k.label))!.key;
  const run: Run = {
    url: info.url,
    rpcUrl: info.rpcUrl!,
    demo: partner(/POOL model/),
    revenueShare: partner(/^TIER-model/),
    dead: false,
    async kill() {
      run.dead = true;
      child.kill("SIGKILL");
      await exited;
    },
  };
  return run;
}

async function call(run: Run, method: string, path: string, key: string | null, body?: unknown) {
  const res = await apiCall(request(run.url), method, path, key ? { "x-api-key": key } : {}, body);
  return { status: res.status, body: res.body as { data: any; error?: string } };
}

/** Signs and sends the unsigned calls from a fixture wallet over the served JSON-RPC, as a partner's user would. */
async function sign(run: Run, userIndex: number, calls: Array<{ to: Hex; data: Hex }>): Promise<Hex> {
  const chain = defineChain({
    id: 31337,
    name: "Emulator",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [run.rpcUrl] } },
  });
  const transport = http(run.rpcUrl, { retryCount: 0 });
  const wallet = createWalletClient({
    account: privateKeyToAccount(END_USERS[userIndex]!.privateKey),
    chain,
    transport,
  });
  const reader = createPublicClient({ chain, transport });
  let hash: Hex = "0x";
  for (const c of calls) {
    hash = await wallet.sendTransaction({ to: c.to, data: c.data });
    // Automine: the receipt is there once the hash is returned.
    const receipt = await reader.getTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    if (run.dead) throw new Error("killed");
  }
  return hash;
}

/** prepare → sign → submit → reveal; returns the purchase id and its token ids. */
async function purchase(run: Run, key: string, userIndex: number) {
  const wallet_address = END_USERS[userIndex]!.address;
  const prep = await call(run, "POST", "/api/v1/mystery/purchase/prepare", key, { wallet_address, tier_id: 1 });
  expect(prep.status).toBe(200);
  const transaction_hash = await sign(run, userIndex, prep.body.data.calls);
  const sub = await call(run, "POST", "/api/v1/mystery/purchase/submit", key, {
    wallet_address,
    tier_id: 1,
    transaction_hash,
  });
  expect(sub.status).toBe(202);
  expect(
    (await call(run, "POST", "/_emulator/vrf/fulfill", null, { request_id: sub.body.data.onchain_request_id })).status,
  ).toBe(200);
  const got = await call(run, "GET", `/api/v1/mystery/purchase/${sub.body.data.id}`, key);
  expect(got.body.data.status).toBe("FULFILLED");
  return {
    id: sub.body.data.id as string,
    tokens: got.body.data.items as { token_id: string; item_type: string }[],
    user: userIndex,
  };
}

type Bought = Awaited<ReturnType<typeof purchase>>;

/** On disk: the purchase's API record, revealed, and a chain that got at least as far. */
function onDisk(file: string, bought: Bought[]): boolean {
  const doc = readStateFile(file);
  const purchases =
    (doc?.state.areas.mystery as { purchases?: Record<string, { status: string }> } | undefined)?.purchases ?? {};
  return bought.every((b) =>
    Object.values(purchases).some((p) => (p as { id?: string }).id === b.id && p.status === "FULFILLED"),
  );
}

describe("--state FILE with the chain, SIGKILL", () => {
  it("killed at random points while buying: the file parses, holds every purchase already on disk, and the chain comes back with it; redemption and sell-back work after the restart", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "emu-chain-kill-")), "state.json");
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const settled: Bought[] = [];
    let run = await launch(file);
    for (let round = 0; round < 2; round++) {
      // Older changes: made, then seen on disk, written through by themselves (the timing: test/unit/state-file-interval.test.ts).
      const older = [await purchase(run, round === 0 ? run.demo : run.revenueShare, round === 0 ? 0 : 2)];
      await waitFor(() => onDisk(file, older), "the purchase on disk");
      settled.push(...older);
      // A stream of purchases, the last one still in flight (prepared, signing or submitting) when killed.
      const n = 1 + Math.floor(rand() * 3);
      const stream: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++) {
        const p = purchase(run, run.demo, 4 + i).catch(() => undefined);
        stream.push(p);
        if (i < n - 1) await p;
      }
      await new Promise((r) => setTimeout(r, Math.floor(rand() * 60)));
      await run.kill();
      await Promise.allSettled(stream);

      expect(() => readStateFile(file)).not.toThrow();
      run = await launch(file);
      for (const b of settled) {
        const got = await call(
          run,
          "GET",
          `/api/v1/mystery/purchase/${b.id}`,
          b.user === 0 ? run.demo : run.revenueShare,
        );
        expect(got.status, `round ${round}: ${b.id}`).toBe(200);
        expect(got.body.data.status).toBe("FULFILLED");
      }
    }

    // On the restored chain: the cards are where they were, a redemption and a sell-back go through.
    const reader = createPublicClient({ transport: http(run.rpcUrl) });
    const nft = (await call(run, "GET", "/_emulator/chain", null)).body.data.contracts.cardNft as Hex;
    for (const b of settled)
      for (const t of b.tokens)
        expect(
          await reader.readContract({
            address: nft,
            abi: cardNftAbi,
            functionName: "ownerOf",
            args: [BigInt(t.token_id)],
          }),
        ).toBe(END_USERS[b.user]!.address);

    const pool = settled[0]!;
    const R = "/api/v1/mystery/redemption";
    const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
    const first = await call(run, "POST", `${R}/prepare`, run.demo, {
      purchase_id: pool.id,
      shipping_address: US,
      idempotency_key: "k-1",
    });
    expect(first.status).toBe(201);
    const prep = first; // the demo partner runs no KYC (as on the live service)
    expect(prep.body.data.status).toBe("PREPARED");
    const burn = await sign(run, pool.user, prep.body.data.unsigned.calls);
    const sub = await call(run, "POST", `${R}/submit`, run.demo, {
      redemption_id: first.body.data.redemption_id,
      tx_hash: burn,
    });
    expect(sub.status).toBe(202);

    const tier = settled[1]!;
    const ids = tier.tokens.map((t) => t.token_id);
    const S = "/api/v1/mystery/sellback";
    const sp = await call(run, "POST", `${S}/prepare`, run.revenueShare, {
      wallet_address: END_USERS[tier.user]!.address,
      token_ids: ids,
    });
    expect(sp.status).toBe(200);
    const sold = await sign(run, tier.user, sp.body.data.calls);
    const done = await call(run, "POST", `${S}/submit`, run.revenueShare, { transaction_hash: sold });
    expect(done.status).toBe(200);
    expect(done.body.data.token_ids).toEqual(ids);
    await run.kill();
  });
});
