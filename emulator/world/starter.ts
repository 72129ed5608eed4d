// The starter world `npx emulator init` writes: every part of a world file, commented, with values that
// run as written (test/world/schema-file.test.ts starts an emulator with it).

export const STARTER_WORLD = `# A test world for the CardOS emulator (docs/world.md).
#   npx emulator --world world.yaml        start with it (EMULATOR_WORLD=world.yaml works too)
#   npx emulator world --schema            the JSON Schema of this file
# Every part is optional. The file is checked whole before anything starts; POST /_emulator/reset
# (and emu.reset()) returns to exactly this world. USDC amounts: decimal strings ("25.00") or integer micros.
version: 1

# The virtual clock: where it starts and whether it moves on its own (realtime) or only when advanced (manual).
clock:
  start: "2026-01-15T12:00:00Z"
  mode: manual

# A catalog overlay (npx emulator fixtures import DIR writes one), relative to this file.
# catalog_overlay: ./overlay.json

# Partner accounts. Each key has a name you use everywhere: emu.key("shop"), the banner, --json,
# EMULATOR_KEY_SHOP under \`npx emulator exec\`, \`npx emulator trigger --key shop\`, control routes.
accounts:
  - id: my-shop
    billing_model: POOL          # POOL (your own inventory pool) or TIER (the service holds it)
    kyc_required: false          # true: redemptions run KYC first
    pool_wallet: "0x1111111111111111111111111111111111111111"
    keys:
      - name: shop               # default scopes: every partner scope but payout:manage
        credits: 500             # the key's credit balance
        rate_limit_per_min: 300  # Card Data
        partner_rate_limit_per_min: 240  # mystery, instant, wallet, webhooks
        fresh_per_min: 10        # fresh=true reads
      - name: shop-readonly
        scopes: [read:catalog, packs:read, wallet:read]
    webhooks:
      - url: http://127.0.0.1:4400/webhooks    # your receiver; the secret is generated (GET /_emulator/webhooks)
        event_types: [purchase.fulfilled, deposit.credited]
        chaos: { duplicate: { every: 3 } }    # delivery chaos: duplicates, reordering, delays, drops
    # End users' custodial USDC balances. Test values (docs/test-values.md) need no setup: a purchase by
    # external_user_id kyc_approve or kyc_decline has a KYC account's redemption approved or declined at once;
    # offer_price_usdc "1.23" has a buyback offer rejected by the marketplace.
    custodial_users:
      - { external_user_id: alice, usdc: "100.00" }
      - { external_user_id: bob, usdc: "2.50" }

  - id: my-tier-shop
    billing_model: TIER
    payout_wallet: "0x2222222222222222222222222222222222222222"
    keys:
      - name: tier-shop
        scopes: [read:catalog, wallet:read, wallet:deposit, packs:purchase, packs:read, packs:buyback, cards:redeem, webhooks:manage, payout:manage]

# Warehouse tenants: their keys, webhooks and the cards they hold, each in an identity/pricing state:
# pending (identity unconfirmed), unpriced (published, no market price), priced (published and priced).
# A tenant also holds the fixture inventory every tenant starts with. Test values: an order shipped to
# street1 "FAIL LABEL" has its label purchase fail; to "RETURN TO SENDER", the package comes back (RETURNED).
tenants:
  - id: my-vault
    keys:
      - name: vault              # default scopes: every tenant scope
    cards:
      - { state: pending, declared_value: "40.00" }
      - { state: unpriced, card_id: base1-2 }
      - { state: priced, card_id: base1-4, market_price: "321.50" }

# Instant packs on the store contract (packet types 1-4): price and stock (stock only grows: restock).
instant:
  packet_types:
    - { packet_type_id: 4, price_usdc: "3.99", stock: 2 }

# Faults the emulator starts with (as POST /_emulator/faults).
faults:
  - { match: { method: GET, path: /api/v1/pokemon/sets }, status: 503, times: 1 }

# Steered reveals (docs/steering.md; they need the chain): the next matching purchases reveal what is named,
# in order (as POST /_emulator/mystery/reveals; area: instant for instant packs). GET /_emulator/mystery/reveals
# and the dashboard (Clock & timers) show those still waiting; reset queues them again.
reveals:
  - { tier_id: 1, account: my-shop, external_user_id: alice, band: { min_usd: "2", max_usd: "3" } }
`;
