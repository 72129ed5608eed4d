import { describe, expect, it } from "vitest";
import { parseWorld } from "../../emulator/world/checks.ts";
import { createEmulator, WorldError } from "../../emulator/index.ts";

// Malformed worlds, each refused with every problem named by its path (the check createEmulator and
// `--world` run before anything starts).

const key = (extra: Record<string, unknown> = {}) => ({ name: "k", ...extra });
const account = (extra: Record<string, unknown> = {}) => ({
  id: "acct",
  billing_model: "POOL",
  keys: [key()],
  ...extra,
});
const tenant = (extra: Record<string, unknown> = {}) => ({ id: "vault", keys: [{ name: "v" }], ...extra });
const w = (extra: Record<string, unknown>) => ({ version: 1, ...extra });

const CASES: [string, unknown, string][] = [
  ["not an object", "hello", "(root): Invalid input: expected object, received string"],
  ["no version", {}, "version: version must be 1"],
  ["another version", { version: 2 }, "version: version must be 1"],
  [
    "an unknown top-level key",
    w({ acounts: [] }),
    "acounts: unknown key (allowed here: version, clock, catalog_overlay, accounts, tenants, instant, faults, reveals)",
  ],
  ["accounts not a list", w({ accounts: { id: "a" } }), "accounts: Invalid input: expected array, received object"],
  [
    "an unknown billing model",
    w({ accounts: [account({ billing_model: "FLAT" })] }),
    'accounts[0].billing_model: unknown billing model "FLAT" (one of POOL, TIER)',
  ],
  [
    "an account without keys",
    w({ accounts: [account({ keys: [] })] }),
    "accounts[0].keys: an account needs at least one key",
  ],
  [
    "an unknown scope",
    w({
      accounts: [
        account(),
        account({ id: "b", keys: [key({ name: "b", scopes: ["read:catalog", "packs:read", "packs:buy"] })] }),
      ],
    }),
    'accounts[1].keys[0].scopes[2]: unknown scope "packs:buy" (one of read:catalog, wallet:read, wallet:deposit, packs:purchase, packs:read, packs:buyback, cards:redeem, pool:manage, webhooks:manage, payout:manage)',
  ],
  [
    "a tenant scope on a partner key",
    w({ accounts: [account({ keys: [key({ scopes: ["write:order"] })] })] }),
    'accounts[0].keys[0].scopes[0]: unknown scope "write:order"',
  ],
  [
    "an unknown key field",
    w({ accounts: [account({ keys: [key({ colour: "red" })] })] }),
    "accounts[0].keys[0].colour: unknown key (allowed here: name, label,",
  ],
  [
    "a key name with capitals",
    w({ accounts: [account({ keys: [key({ name: "Shop" })] })] }),
    "accounts[0].keys[0].name: a key name: a lower-case letter",
  ],
  [
    "duplicate key names",
    w({ accounts: [account({ keys: [key(), key()] })] }),
    'accounts[0].keys[1].name: duplicate key name "k" (first at accounts[0].keys[0].name)',
  ],
  [
    "duplicate key names across accounts",
    w({ accounts: [account()], tenants: [tenant({ keys: [{ name: "k" }] })] }),
    'tenants[0].keys[0].name: duplicate key name "k"',
  ],
  [
    "a fixture key's name",
    w({ accounts: [account({ keys: [key({ name: "demo" })] })] }),
    'accounts[0].keys[0].name: "demo" is a fixture key\'s name',
  ],
  [
    "a fixture key's former name",
    w({ accounts: [account({ keys: [key({ name: "tier" })] })] }),
    'accounts[0].keys[0].name: "tier" is a fixture key\'s name',
  ],
  [
    "a duplicate scope",
    w({ accounts: [account({ keys: [key({ scopes: ["packs:read", "packs:read"] })] })] }),
    'accounts[0].keys[0].scopes[1]: duplicate scope "packs:read"',
  ],
  [
    "credits as a float",
    w({ accounts: [account({ keys: [key({ credits: 1.5 })] })] }),
    "accounts[0].keys[0].credits: credits must be a non-negative integer",
  ],
  [
    "a zero rate limit",
    w({ accounts: [account({ keys: [key({ rate_limit_per_min: 0 })] })] }),
    "accounts[0].keys[0].rate_limit_per_min: rate_limit_per_min must be a positive integer",
  ],
  [
    "duplicate account ids",
    w({ accounts: [account(), account({ keys: [key({ name: "k2" })] })] }),
    'accounts[1].id: duplicate account id "acct" (first at accounts[0].id)',
  ],
  [
    "a bad pool wallet",
    w({ accounts: [account({ pool_wallet: "0x12" })] }),
    'accounts[0].pool_wallet: "0x12" is not a 0x-prefixed 20-byte address',
  ],
  [
    "a payout wallet no key can set",
    w({ accounts: [account({ payout_wallet: "0x2222222222222222222222222222222222222222" })] }),
    "accounts[0].payout_wallet: no key of this account has payout:manage",
  ],
  [
    "a balance as a float",
    w({ accounts: [account({ custodial_users: [{ external_user_id: "u", usdc: 25.5 }] })] }),
    'accounts[0].custodial_users[0].usdc: 25.5 is not exact: write USDC as a decimal string ("25.5") or as integer micros',
  ],
  [
    "a balance past 2^256",
    w({ accounts: [account({ custodial_users: [{ external_user_id: "u", usdc: (2n ** 256n).toString() }] })] }),
    "accounts[0].custodial_users[0].usdc: 115792089237316195423570985008687907853269984665640564039457584007913129639936: more than a balance may hold (at most 1000000000000.000000 USDC)",
  ],
  [
    "a balance with 7 places",
    w({ accounts: [account({ custodial_users: [{ external_user_id: "u", usdc: "1.0000001" }] })] }),
    'accounts[0].custodial_users[0].usdc: "1.0000001" is not a USDC amount',
  ],
  [
    "a negative balance",
    w({ accounts: [account({ custodial_users: [{ external_user_id: "u", usdc: "-5" }] })] }),
    'accounts[0].custodial_users[0].usdc: "-5" is not a USDC amount',
  ],
  [
    "a duplicate custodial user",
    w({
      accounts: [
        account({
          custodial_users: [
            { external_user_id: "u", usdc: "1" },
            { external_user_id: "u", usdc: "2" },
          ],
        }),
      ],
    }),
    'accounts[0].custodial_users[1].external_user_id: duplicate user "u"',
  ],
  [
    "an unknown event type",
    w({ accounts: [account({ webhooks: [{ url: "http://127.0.0.1:9/h", event_types: ["purchase.completed"] }] })] }),
    'accounts[0].webhooks[0].event_types[0]: unknown event type "purchase.completed"',
  ],
  [
    "a webhook's key that is not the account's",
    w({ accounts: [account({ webhooks: [{ url: "http://127.0.0.1:9/h", key: "other" }] })] }),
    'accounts[0].webhooks[0].key: no key "other" in this account (have: k)',
  ],
  [
    "a webhook no key may register",
    w({
      accounts: [account({ keys: [key({ scopes: ["read:catalog"] })], webhooks: [{ url: "http://127.0.0.1:9/h" }] })],
    }),
    "accounts[0].webhooks[0]: no key of this account has webhooks:manage",
  ],
  [
    "bad webhook chaos",
    w({ accounts: [account({ webhooks: [{ url: "http://127.0.0.1:9/h", chaos: { delay_ms: -1 } }] })] }),
    "accounts[0].webhooks[0].chaos.delay_ms:",
  ],
  [
    "an unknown card state",
    w({ tenants: [tenant({ cards: [{ state: "graded" }] })] }),
    'tenants[0].cards[0].state: unknown card state "graded" (one of pending, unpriced, priced)',
  ],
  [
    "a priced card without a price",
    w({ tenants: [tenant({ cards: [{ state: "priced", card_id: "base1-4" }] })] }),
    'tenants[0].cards[0]: a priced card needs market_price (e.g. "12.34")',
  ],
  [
    "a published card without an id",
    w({ tenants: [tenant({ cards: [{ state: "unpriced" }] })] }),
    "tenants[0].cards[0]: a unpriced card needs card_id (a catalog card)",
  ],
  [
    "a pending card with an id",
    w({ tenants: [tenant({ cards: [{ state: "pending", card_id: "base1-4" }] })] }),
    "tenants[0].cards[0].card_id: a pending card has no identity yet",
  ],
  [
    "a price with 3 places",
    w({ tenants: [tenant({ cards: [{ state: "priced", card_id: "base1-4", market_price: "1.234" }] })] }),
    'tenants[0].cards[0].market_price: "1.234" is not a positive USD amount with at most 2 places',
  ],
  [
    "cards no key can announce",
    w({ tenants: [tenant({ keys: [{ name: "v", scopes: ["read:inventory"] }], cards: [{ state: "pending" }] })] }),
    "tenants[0].cards: no key of this tenant has write:inbound_shipment",
  ],
  [
    "an unknown packet type",
    w({ instant: { packet_types: [{ packet_type_id: 9 }] } }),
    "instant.packet_types[0].packet_type_id: no packet type 9 on the store contract (one of 1, 2, 3, 4)",
  ],
  [
    "a stock below the contract's",
    w({ instant: { packet_types: [{ packet_type_id: 1, stock: 2 }] } }),
    "instant.packet_types[0].stock: 2 is below packet type 1's 24 bundles: the store contract only adds bundles (restock); use packet type 4 for a small stock",
  ],
  [
    "a zero price",
    w({ instant: { packet_types: [{ packet_type_id: 1, price_usdc: "0" }] } }),
    "instant.packet_types[0].price_usdc: a price must be above zero",
  ],
  [
    "a fault status out of range",
    w({ faults: [{ match: { path: "/api/v1/x" }, status: 200 }] }),
    "faults[0].status: status must be an integer from 400 to 599",
  ],
  [
    "a bad clock",
    w({ clock: { start: "yesterday", mode: "fast" } }),
    'clock.mode: unknown clock mode "fast" (one of realtime, manual)',
  ],
  ["a bad start time", w({ clock: { start: "yesterday" } }), 'clock.start: "yesterday" is not an ISO-8601 time'],
];

describe("a malformed world is refused, every problem named by its path", () => {
  it.each(CASES)("%s", (_what, doc, problem) => {
    const r = parseWorld(doc);
    expect(r.world).toBeNull();
    expect(r.problems.join("\n")).toContain(problem);
  });

  it("lists every problem of the file at once", () => {
    const r = parseWorld(
      w({ accounts: [account({ billing_model: "FLAT", keys: [key({ scopes: ["packs:buy"], colour: 1 })] })] }),
    );
    expect(r.problems).toEqual([
      'accounts[0].billing_model: unknown billing model "FLAT" (one of POOL, TIER)',
      expect.stringMatching(/^accounts\[0\]\.keys\[0\]\.scopes\[0\]: unknown scope "packs:buy"/),
      expect.stringMatching(/^accounts\[0\]\.keys\[0\]\.colour: unknown key/),
    ]);
  });

  it("a card the catalog does not hold stops createEmulator before anything starts", async () => {
    const world = w({ tenants: [tenant({ cards: [{ state: "unpriced", card_id: "nope-1" }] })] });
    const err = await createEmulator({ seed: 1, clock: "manual", world }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorldError);
    expect((err as WorldError).problems).toEqual(['tenants[0].cards[0].card_id: no card "nope-1" in the catalog']);
  });

  it("instant packet types without the chain are refused, saying why", async () => {
    const world = w({ instant: { packet_types: [{ packet_type_id: 4, stock: 2 }] } });
    const err = await createEmulator({ seed: 1, clock: "manual", world }).catch((e: unknown) => e);
    expect((err as WorldError).problems).toEqual([
      "instant.packet_types: instant packs live on the chain; start the emulator with its chain or drop them",
    ]);
  });

  it("a world with a state is refused", async () => {
    await expect(createEmulator({ world: w({}), stateFile: "/tmp/never-written.json" })).rejects.toThrow(
      "give world or state / stateFile, not both",
    );
  });
});
