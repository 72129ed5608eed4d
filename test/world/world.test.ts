import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { sweep } from "../warehouse/helpers.ts";

// A declared world, started with createEmulator({ world }) and read back through the public API and the
// control plane; reset returns to it.

const POOL_WALLET = "0x1111111111111111111111111111111111111111";
const PAYOUT_WALLET = "0x2222222222222222222222222222222222222222";

const WORLD = {
  version: 1,
  clock: { start: "2026-03-01T09:00:00Z", mode: "manual" },
  accounts: [
    {
      id: "shop-pool",
      billing_model: "POOL",
      kyc_required: true,
      pool_wallet: POOL_WALLET,
      keys: [
        {
          name: "shop",
          credits: 1234,
          rate_limit_per_min: 77,
          partner_rate_limit_per_min: 66,
          fresh_per_min: 5,
        },
        { name: "shop-reader", scopes: ["read:catalog", "packs:read"] },
      ],
      webhooks: [
        {
          url: "http://127.0.0.1:9/hooks/shop",
          event_types: ["purchase.fulfilled"],
          chaos: { duplicate: { every: 2 }, drop_first_attempt: true },
        },
      ],
      custodial_users: [
        { external_user_id: "alice", usdc: "25.00" },
        { external_user_id: "bob", usdc: 1_500_000 },
      ],
    },
    {
      id: "shop-tier",
      billing_model: "TIER",
      payout_wallet: PAYOUT_WALLET,
      keys: [{ name: "tiered", scopes: ["read:catalog", "wallet:read", "webhooks:manage", "payout:manage"] }],
      webhooks: [{ url: "http://127.0.0.1:9/hooks/tier" }],
      custodial_users: [{ external_user_id: "carol", usdc: "0.000001" }],
    },
  ],
  tenants: [
    {
      id: "vault-co",
      keys: [{ name: "vault" }],
      cards: [
        { state: "pending", declared_value: "12.34" },
        { state: "unpriced", card_id: "base1-2", declared_value: "12.34" },
        { state: "priced", card_id: "base1-4", market_price: "321.50" },
      ],
    },
  ],
  instant: { packet_types: [{ packet_type_id: 4, price_usdc: "7.25", stock: 2 }] },
  faults: [{ match: { method: "GET", path: "/api/v1/pokemon/sets" }, status: 503, times: 3 }],
};

let emu: Emulator;

/**
 * The export once the deposit watcher has scanned to the chain's head (it runs on its own; a wallet read
 * makes it scan now), so two exports compare the records, not where the watcher happened to be.
 */
async function settledExport() {
  await api.get("/api/v1/wallet/balance?external_user_id=alice").set("X-API-Key", emu.key("shop")).expect(200);
  return emu.exportState();
}

/** Changes to every part of the world: a key, a balance, the store contract, the faults. */
async function activity() {
  await api.post("/_emulator/keys").send({ kind: "partner" }).expect(201);
  await api
    .post("/_emulator/mystery/custodial/fund")
    .send({ key: "shop", external_user_id: "alice", usdc: "5" })
    .expect(200);
  await api.post("/_emulator/instant/restock").send({ packet_type_id: 4, count: 3 }).expect(200);
  await api.delete("/_emulator/faults").expect(200);
}
let api: ReturnType<typeof request>;

beforeAll(async () => {
  emu = await createEmulator({ seed: 1, port: 0, validateResponses: true, chain: { rpcPort: 0 }, world: WORLD });
  api = request(emu.url);
});
afterAll(() => emu?.close());

const keyRow = async (name: string) => {
  const res = await api.get("/_emulator/keys").expect(200);
  return (res.body.data.keys as { name?: string }[]).find((k) => k.name === name) as Record<string, unknown>;
};

describe("a declared world", () => {
  it("names its keys: emu.key(name), emu.keys, GET /_emulator/keys, with kind, scopes, limits and credits", async () => {
    expect(emu.key("shop")).toMatch(/^rip_v1_/);
    expect(emu.keys.map((k) => k.name)).toEqual(
      expect.arrayContaining(["demo", "shop", "shop-reader", "tiered", "vault"]),
    );
    expect(await keyRow("shop")).toMatchObject({
      key: emu.key("shop"),
      kind: "partner",
      billing_model: "POOL",
      account_id: "shop-pool",
      rate_limit_per_min: 77,
      partner_rate_limit_per_min: 66,
      fresh_per_min: 5,
      balance: 1234,
      scopes: expect.arrayContaining(["packs:purchase", "pool:manage", "webhooks:manage"]),
    });
    expect(await keyRow("shop-reader")).toMatchObject({
      scopes: ["read:catalog", "packs:read"],
      account_id: "shop-pool",
    });
    expect(await keyRow("tiered")).toMatchObject({ billing_model: "TIER", account_id: "shop-tier" });
    expect(await keyRow("vault")).toMatchObject({ kind: "tenant", account_id: "vault-co" });
    expect(emu.keys.find((k) => k.name === "vault")?.kind).toBe("tenant");
    // Control actions take the world's names as they take the fixtures'.
    expect((await api.get("/_emulator/credits/shop").expect(200)).body.data.balance).toBe(1234);
  });

  it("starts the clock where and how the world says", async () => {
    const clock = (await api.get("/_emulator/clock").expect(200)).body.data;
    expect(clock).toMatchObject({ mode: "manual", now: "2026-03-01T09:00:00.000Z" });
  });

  it("sets the accounts' wallets and KYC", async () => {
    const pool = await api.get("/api/v1/mystery/pool-wallet").set("X-API-Key", emu.key("shop")).expect(200);
    expect(pool.body.data.address.toLowerCase()).toBe(POOL_WALLET);
    const payout = await api.get("/api/v1/mystery/payout-wallet").set("X-API-Key", emu.key("tiered")).expect(200);
    expect(payout.body.data.address.toLowerCase()).toBe(PAYOUT_WALLET);
    const kyc = emu.exportState().state.areas;
    expect(JSON.stringify(kyc)).toContain('"shop-pool":true');
  });

  it("registers the webhooks with their event types and chaos", async () => {
    const shop = await api.get("/api/v1/webhooks").set("X-API-Key", emu.key("shop")).expect(200);
    expect(shop.body.data.webhooks).toEqual([
      expect.objectContaining({ url: "http://127.0.0.1:9/hooks/shop", event_types: ["purchase.fulfilled"] }),
    ]);
    const tier = await api.get("/api/v1/webhooks").set("X-API-Key", emu.key("tiered")).expect(200);
    expect(tier.body.data.webhooks).toEqual([expect.objectContaining({ url: "http://127.0.0.1:9/hooks/tier" })]);
    const all = (await api.get("/_emulator/webhooks").expect(200)).body.data.webhooks as Record<string, unknown>[];
    expect(all.find((w) => w.account_id === "shop-pool")).toMatchObject({
      chaos: { duplicate: { every: 2 }, drop_first_attempt: true },
      signing_secret: expect.any(String),
    });
    expect(all.find((w) => w.account_id === "shop-tier")).toMatchObject({ chaos: null });
  });

  it("funds the custodial users (decimal strings and integer micros)", async () => {
    const bal = async (key: string, user: string) =>
      (await api.get(`/api/v1/wallet/balance?external_user_id=${user}`).set("X-API-Key", emu.key(key)).expect(200)).body
        .data.wallet;
    expect(await bal("shop", "alice")).toMatchObject({ balance: "25000000", available_usdc: "25.000000" });
    expect(await bal("shop", "bob")).toMatchObject({ balance: "1500000", available_usdc: "1.500000" });
    expect(await bal("tiered", "carol")).toMatchObject({ balance: "1", available_usdc: "0.000001" });
  });

  it("prices and stocks the instant packet type on the store contract", async () => {
    const types = (await api.get("/_emulator/instant").expect(200)).body.data.packet_types as Record<string, unknown>[];
    expect(types.find((t) => t.packet_type_id === 4)).toEqual({
      packet_type_id: 4,
      price_usdc: "7.250000",
      available_packs: 2,
    });
  });

  it("puts a card of each identity/pricing state in the tenant's vault", async () => {
    const cards = await sweep(api, emu.key("vault"));
    const pending = cards.filter((c) => c.identity.status === "unconfirmed" && c.declared_value?.amount === 1234);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.pricing).toMatchObject({ status: "unverified", market_price: null });
    const unpriced = cards.find((c) => c.identity.card_id === "base1-2");
    expect(unpriced).toMatchObject({
      identity: { status: "confirmed" },
      pricing: { status: "unpriced", market_price: null },
    });
    const priced = cards.find((c) => c.identity.card_id === "base1-4");
    expect(priced).toMatchObject({
      identity: { status: "confirmed" },
      pricing: { status: "priced", market_price: "321.50" },
    });
  });

  it("starts with the world's faults", async () => {
    const faults = (await api.get("/_emulator/faults").expect(200)).body.data.faults;
    expect(faults).toEqual([
      expect.objectContaining({ match: { method: "GET", path: "/api/v1/pokemon/sets" }, status: 503, times: 3 }),
    ]);
  });

  it("reset after activity returns to the world: the full export equals the one right after start", async () => {
    const before = await settledExport();
    await activity();
    await api.post("/_emulator/reset").expect(200);
    expect(await settledExport()).toEqual(before);
    expect((await api.get("/_emulator/faults").expect(200)).body.data.faults).toHaveLength(1);
    const types = (await api.get("/_emulator/instant").expect(200)).body.data.packet_types as Record<string, unknown>[];
    expect(types.find((t) => t.packet_type_id === 4)).toMatchObject({ available_packs: 2 });
  });

  it("reset after a day of activity takes the clock back to the world's moment too: the full export is the same", async () => {
    const before = await settledExport();
    await activity();
    await api.post("/_emulator/clock/advance").send({ ms: 86_400_000 }).expect(200);
    await api.post("/_emulator/reset").expect(200);
    const after = await settledExport();
    expect(after.now).toBe(before.now);
    expect(after).toEqual(before);
  });
});
