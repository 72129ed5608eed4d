import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { cardNftAbi, usdStablecoinAbi, type Chain } from "../../chain/index.ts";
import { createEmulator, type EmulatorOptions, type StateExport } from "../../emulator/index.ts";
import { readStateFile } from "../../emulator/state/state-file.ts";
import { buy, buyRevealed, sendCalls, type Ctx } from "../mystery/helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// The chain is part of the state: an emulator started from a state file (or
// given an export) rebuilds the chain exactly as it was, so every
// chain-backed record keeps working: redemption, sell-back, offers, pending
// VRF requests, balances and ownership.

const US = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const open: Ctx[] = [];

async function start(options: EmulatorOptions = {}): Promise<Ctx> {
  const emu = await createEmulator({
    seed: 1,
    clock: "manual",
    port: 0,
    chain: { rpcPort: false, vrf: "manual" },
    ...options,
  });
  const ctx: Ctx = {
    emu,
    api: request(emu.url),
    close: () => emu.close(),
    demo: emu.key("demo"),
    revenueShare: emu.key("revenue-share"),
    tenant: emu.key("tenant"),
    events: [],
  };
  emu.services.bus.on("webhook.event", (e) => ctx.events.push(e));
  open.push(ctx);
  return ctx;
}

afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

const tmpFile = () => join(mkdtempSync(join(tmpdir(), "emu-chain-")), "state.json");

/** What must be equal before and after a restart: the head block, balances, ownership, pending requests. */
async function chainFacts(chain: Chain, tokenIds: string[]) {
  const read = (address: `0x${string}`, abi: readonly unknown[], functionName: string, args: unknown[]) =>
    chain.publicClient.readContract({
      address,
      abi: abi as never,
      functionName: functionName as never,
      args: args as never,
    });
  const head = await chain.publicClient.getBlock();
  const users = chain.endUsers.slice(0, 4).map((u) => u.address);
  return {
    block: head.number,
    hash: head.hash,
    stateRoot: head.stateRoot,
    usdc: await Promise.all(
      [...users, chain.addresses.mysteryPool].map((a) =>
        read(chain.addresses.stablecoin, usdStablecoinAbi, "balanceOf", [a]),
      ),
    ),
    allowance: await read(chain.addresses.stablecoin, usdStablecoinAbi, "allowance", [
      chain.poolSigner.address,
      chain.addresses.marketplace,
    ]),
    owners: await Promise.all(tokenIds.map((id) => read(chain.addresses.cardNft, cardNftAbi, "ownerOf", [BigInt(id)]))),
    pending: await chain.pendingVrfRequests(),
    addresses: chain.addresses,
  };
}

const tokens = (p: Record<string, any>): string[] => p.items.map((i: { token_id: string }) => i.token_id);

describe("the chain in the state", () => {
  it("purchase → reveal → restart from the state file → redemption and sell-back on the restored chain; a pending VRF request is fulfilled after it", async () => {
    const file = tmpFile();
    const a = await start({ stateFile: file });
    const pool = await buyRevealed(a, a.demo, a.emu.chain!.endUsers[0]!, 1); // POOL partner: redemption
    const tier = await buyRevealed(a, a.revenueShare, a.emu.chain!.endUsers[2]!, 1); // TIER partner: sell-back
    const { purchase: pending } = await buy(a, a.demo, a.emu.chain!.endUsers[1]!, 1); // revealed only after the restart
    const ids = [...tokens(pool), ...tokens(tier)];
    const before = await chainFacts(a.emu.chain!, ids);
    expect(before.pending).toEqual([BigInt(pending.onchain_request_id)]);
    await a.close();
    open.length = 0;

    const doc = readStateFile(file)!;
    expect(doc.version).toBe(2);
    expect(doc.chain!.head).toMatchObject({ number: Number(before.block), hash: before.hash });

    const b = await start({ stateFile: file });
    expect(await chainFacts(b.emu.chain!, ids)).toEqual(before);

    // The pending request made before the restart is fulfilled after it.
    await b.api.post("/_emulator/vrf/fulfill").send({ request_id: pending.onchain_request_id }).expect(200);
    const revealed = await b.api.get(`/api/v1/mystery/purchase/${pending.id}`).set("X-API-Key", b.demo).expect(200);
    expect(revealed.body.data.status).toBe("FULFILLED");

    // Redemption of a card bought before the restart: the holder's calls (burn, approve, shipping payment), submit.
    const card = pool.items.find((i: { item_type: string }) => i.item_type === "CARD");
    const R = "/api/v1/mystery/redemption";
    const first = await b.api
      .post(`${R}/prepare`)
      .set("X-API-Key", b.demo)
      .send({ purchase_id: pool.id, shipping_address: US, idempotency_key: "r-1" })
      .expect(201);
    expect(first.body.data).toMatchObject({ status: "PREPARED", token_id: card.token_id });
    const prep = first;
    const burn = await sendCalls(b, b.emu.chain!.endUsers[0]!, prep.body.data.unsigned.calls);
    const sub = await b.api
      .post(`${R}/submit`)
      .set("X-API-Key", b.demo)
      .send({ redemption_id: first.body.data.redemption_id, tx_hash: burn.transactionHash })
      .expect(202);
    expect(sub.body.data.status).toBe("BURN_SUBMITTED");

    // Sell-back of cards bought before the restart.
    const S = "/api/v1/mystery/sellback";
    const seller = b.emu.chain!.endUsers[2]!;
    const q = await b.api
      .post(`${S}/quote`)
      .set("X-API-Key", b.revenueShare)
      .send({ wallet_address: seller.address, token_ids: tokens(tier) })
      .expect(200);
    expect(q.body.data.items.every((i: { eligible: boolean }) => i.eligible)).toBe(true);
    const sp = await b.api
      .post(`${S}/prepare`)
      .set("X-API-Key", b.revenueShare)
      .send({ wallet_address: seller.address, token_ids: tokens(tier) })
      .expect(200);
    const sold = await sendCalls(b, seller, sp.body.data.calls);
    const done = await b.api
      .post(`${S}/submit`)
      .set("X-API-Key", b.revenueShare)
      .send({ transaction_hash: sold.transactionHash })
      .expect(200);
    expect(done.body.data).toMatchObject({ token_ids: tokens(tier), total_micros: q.body.data.total_payout_micros });
  });

  it("auto VRF: a purchase still waiting for its reveal when the emulator stopped is revealed on the restored chain's clock", async () => {
    const file = tmpFile();
    const a = await start({ stateFile: file, chain: { rpcPort: false, vrf: "auto" } });
    const { purchase } = await buy(a, a.demo, a.emu.chain!.endUsers[0]!, 1);
    await a.close();
    open.length = 0;

    const b = await start({ stateFile: file, chain: { rpcPort: false, vrf: "auto" } });
    expect(await b.emu.chain!.pendingVrfRequests()).toEqual([BigInt(purchase.onchain_request_id)]);
    await b.emu.clock.advance(5_000);
    expect(await b.emu.chain!.pendingVrfRequests()).toEqual([]);
    const got = await b.api.get(`/api/v1/mystery/purchase/${purchase.id}`).set("X-API-Key", b.demo).expect(200);
    expect(got.body.data.status).toBe("FULFILLED");
  });

  it("a buyback offer signed before the restart is accepted after it (allowances and offer state survive)", async () => {
    const file = tmpFile();
    const a = await start({ stateFile: file });
    const p = await buyRevealed(a, a.demo, a.emu.chain!.endUsers[0]!, 1);
    const card = p.items.find((i: { item_type: string }) => i.item_type === "CARD");
    await a.api.post("/_emulator/mystery/oracle").send({ token_id: card.token_id, usdc: "40" }).expect(200);
    const offer = (await a.api.post(`/api/v1/mystery/buyback/${p.id}`).set("X-API-Key", a.demo).send({}).expect(201))
      .body.data;
    await a.close();
    open.length = 0;

    const b = await start({ stateFile: file });
    await sendCalls(b, b.emu.chain!.endUsers[0]!, offer.calls);
    const chain = b.emu.chain!;
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.cardNft,
        abi: cardNftAbi,
        functionName: "ownerOf",
        args: [BigInt(card.token_id)],
      }),
    ).toBe(chain.poolSigner.address);
    await b.emu.clock.advance(1);
    const offers = await b.api
      .get(`/api/v1/mystery/buyback?token_id=${card.token_id}`)
      .set("X-API-Key", b.demo)
      .expect(200);
    expect(offers.body.data.offers[0]).toMatchObject({ offer_id: offer.offer_id, status: "accepted" });
  });

  it("GET /_emulator/state carries the chain; PUT into another emulator rebuilds it; a bad chain section is a 400 and changes nothing", async () => {
    const a = await start();
    const p = await buyRevealed(a, a.demo, a.emu.chain!.endUsers[0]!, 1);
    const exported = (await a.api.get("/_emulator/state").expect(200)).body.data as StateExport;
    expect(exported).toMatchObject({ format: "cardos-emulator-state", version: 2 });
    expect(exported.chain!.journal.length).toBeGreaterThan(exported.chain!.deployment.journal_length);
    const before = await chainFacts(a.emu.chain!, tokens(p));

    const b = await start();
    const fresh = await chainFacts(b.emu.chain!, []);
    expect(fresh.block).toBeLessThan(before.block);
    // A journal whose replay does not end on the recorded block is refused; the emulator is unchanged.
    const tampered = structuredClone(exported);
    tampered.chain!.head.hash = `0x${"00".repeat(32)}`;
    const bad = await b.api.put("/_emulator/state").send(tampered).expect(400);
    expect(bad.body.error).toBe("invalid_state");
    expect(bad.body.message).toMatch(/replayed from the state ends on block/);
    expect((await chainFacts(b.emu.chain!, [])).hash).toBe(fresh.hash);
    expectError(await b.api.get(`/api/v1/mystery/purchase/${p.id}`).set("X-API-Key", b.demo), 404, "not_found");

    await b.api.put("/_emulator/state").send(exported).expect(200);
    expect(await chainFacts(b.emu.chain!, tokens(p))).toEqual(before);
    const got = await b.api.get(`/api/v1/mystery/purchase/${p.id}`).set("X-API-Key", b.demo).expect(200);
    expect(got.body.data.status).toBe("FULFILLED");
    // The imported chain keeps working, and its export round-trips.
    await buyRevealed(b, b.demo, b.emu.chain!.endUsers[1]!, 1);
    const again = (await b.api.get("/_emulator/state").expect(200)).body.data as StateExport;
    expect(again.chain!.journal.slice(0, exported.chain!.journal.length)).toEqual(exported.chain!.journal);
    // reset goes back to the deployment of the imported chain (same addresses)
    await b.api.post("/_emulator/reset").expect(200);
    expect((await chainFacts(b.emu.chain!, [])).block).toBe(fresh.block);
    expect(b.emu.chain!.addresses).toEqual(before.addresses);
  });

  it("snapshots roll back chain and state together, also across an import (the chain is rebuilt from the snapshot's journal)", async () => {
    const a = await start();
    const snap = (await a.api.post("/_emulator/snapshot").expect(201)).body.data.id as string;
    const base = await chainFacts(a.emu.chain!, []);
    const journalAtSnap = a.emu.exportState().chain!.journal.length;
    const p = await buyRevealed(a, a.demo, a.emu.chain!.endUsers[0]!, 1);
    const later = (await a.api.post("/_emulator/snapshot").expect(201)).body.data.id as string;
    const bought = await chainFacts(a.emu.chain!, tokens(p));
    const exported = a.emu.exportState();

    await a.api.post("/_emulator/restore").send({ id: snap }).expect(200);
    expect(await chainFacts(a.emu.chain!, [])).toEqual(base);
    expect(a.emu.exportState().chain!.journal.length).toBe(journalAtSnap);
    // The later snapshot's network snapshot was consumed by the earlier restore: rebuilt from its journal.
    await a.api.post("/_emulator/restore").send({ id: later }).expect(200);
    expect(await chainFacts(a.emu.chain!, tokens(p))).toEqual(bought);
    expect(
      (await a.api.get(`/api/v1/mystery/purchase/${p.id}`).set("X-API-Key", a.demo).expect(200)).body.data.status,
    ).toBe("FULFILLED");

    await a.api
      .put("/_emulator/state")
      .send({ ...exported, chain: null })
      .expect(200); // an export without a chain: fresh deployment
    expect((await chainFacts(a.emu.chain!, [])).block).toBeLessThan(bought.block);
    await a.api.post("/_emulator/restore").send({ id: later }).expect(200);
    expect(await chainFacts(a.emu.chain!, tokens(p))).toEqual(bought);
  });

  it("older and foreign files are refused with one line naming what to do; without a chain the section is carried through", async () => {
    const file = tmpFile();
    writeFileSync(file, JSON.stringify({ format: "cardos-emulator-state", version: 1, now: 0, state: {} }));
    await expect(createEmulator({ stateFile: file })).rejects.toThrow(
      /^state file .*state\.json: made by an older emulator \(state format version 1, without the chain; this emulator reads version 2\)\. Delete the file or point stateFile elsewhere\.$/,
    );
    writeFileSync(file, JSON.stringify({ format: "cardos-emulator-state", version: 3, now: 0, state: {} }));
    await expect(createEmulator({ stateFile: file })).rejects.toThrow(/made by a newer emulator/);
    const a = await start();
    const old = await a.api
      .put("/_emulator/state")
      .send({ format: "cardos-emulator-state", version: 1, now: 0, state: {} })
      .expect(400);
    expect(old.body).toMatchObject({ error: "invalid_state" });
    expect(old.body.message).toMatch(/made by an older emulator/);
    const badChain = { ...a.emu.exportState(), chain: { chain_id: 31337 } };
    const malformed = await a.api.put("/_emulator/state").send(badChain).expect(400);
    expect(malformed.body.error).toBe("invalid_state");
    expect(malformed.body.message).toMatch(/chain section is malformed/);

    // --no-chain keeps a state's chain as it was, so a later start with the chain restores it.
    await buyRevealed(a, a.demo, a.emu.chain!.endUsers[0]!, 1);
    writeFileSync(file, JSON.stringify(a.emu.exportState()));
    const head = a.emu.exportState().chain!.head;
    const noChain = await createEmulator({ seed: 1, clock: "manual", stateFile: file });
    await noChain.close();
    expect(JSON.parse(readFileSync(file, "utf8")).chain.head).toEqual(head);
    const withChain = await start({ stateFile: file });
    expect((await withChain.emu.chain!.publicClient.getBlock()).hash).toBe(head.hash);
  });
});
