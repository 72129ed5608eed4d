import { createHash } from "node:crypto";

// What the lifecycle tables' event examples (contract/lifecycles/, each event type's `example`) are made of:
// realistic values in the live service's shapes (docs/webhooks.md "Events"; the warehouse ones are ours),
// deterministic from the event type and a sequence number. contract/event-examples.ts runs an example.

export type Payload = Record<string, unknown>;

export interface FixtureContext {
  /** Sequence number of the triggered event: different n, different ids and hashes. */
  n: number;
  /** Virtual time of the event (ISO-8601). */
  now: string;
}

/** Deterministic fixture values derived from the event type and n. */
export class Fixtures {
  constructor(
    readonly type: string,
    readonly ctx: FixtureContext,
  ) {}
  get n(): number {
    return this.ctx.n;
  }
  get now(): string {
    return this.ctx.now;
  }
  hex(label: string, bytes: number): string {
    let out = "";
    for (let i = 0; out.length < bytes * 2; i++)
      out += createHash("sha256")
        .update(`cardos-emulator:event:${this.type}:${this.ctx.n}:${label}:${i}`)
        .digest("hex");
    return `0x${out.slice(0, bytes * 2)}`;
  }
  txHash(label = "tx"): string {
    return this.hex(label, 32);
  }
  address(label: string): string {
    return this.hex(`addr:${label}`, 20);
  }
  /** A decimal-digit string (token ids, VRF request ids are uint256 strings). */
  digits(label: string, length: number): string {
    const h = this.hex(label, 32).slice(2);
    let out = "";
    for (let i = 0; out.length < length; i++)
      out += (parseInt(h.slice((i * 2) % 64, ((i * 2) % 64) + 2), 16) % 10).toString();
    return out.replace(/^0/, "1");
  }
  id(base: number): number {
    return base + this.ctx.n;
  }
}

/** Integer micros → `{micros string, decimal usdc string}`. */
export function money(micros: number): { micros: string; usdc: string } {
  // Integer arithmetic only: a float division would round large amounts.
  const m = BigInt(micros);
  return { micros: m.toString(), usdc: `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, "0")}` };
}

// Contract addresses in fixtures are stable across events (one deployment).
export const CARD_CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
export const POOL_WALLET = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

/** A revealed card as purchase and instant events carry it. */
export const exampleItem = (f: Fixtures) => ({
  token_id: f.digits("token", 12),
  item_type: "CARD",
  category: "card",
  card_id: "base1-4",
  name: "Charizard",
  image_url: "https://images.pokemontcg.io/base1/4_hires.png",
  value_usd: "312.45",
  rarity: "Rare Holo",
  card_number: "4",
  set_id: "base1",
});

/** A quarter's payout statement, as the payout events carry it (PENDING when closed, PAID when paid). */
export const examplePayoutStatement = (f: Fixtures, status: "PENDING" | "PAID"): Payload => {
  const gross = money(48_250_000_000);
  const sellback = money(6_120_000_000);
  const net = money(42_130_000_000);
  const share = money(2_106_500_000);
  return {
    payout_id: f.id(300),
    period: { kind: "QUARTERLY", from: "2025-10-01T00:00:00.000Z", to: "2026-01-01T00:00:00.000Z" },
    qualifying_packs: 1930,
    gross_usdc: gross.usdc,
    sellback_count: 214,
    sellback_usdc: sellback.usdc,
    net_usdc: net.usdc,
    revenue_share_bps: 500,
    revenue_share_pct: "5.00",
    revenue_share_usdc: share.usdc,
    fees_usdc: "0.000000",
    rip_retained_usdc: money(40_023_500_000).usdc,
    by_product: {
      tier: {
        packs: 1930,
        gross_usdc: gross.usdc,
        sellback_count: 214,
        sellback_usdc: sellback.usdc,
        net_usdc: net.usdc,
        share_bps: 500,
        share_usdc: share.usdc,
      },
      instant: {
        packs: 0,
        gross_usdc: "0.000000",
        sellback_usdc: "0.000000",
        net_usdc: "0.000000",
        share_bps: 100,
        share_usdc: "0.000000",
      },
    },
    payout_usdc: share.usdc,
    payout_micros: share.micros,
    status,
    payout_address: f.address("payout"),
    chain: "base",
    tx_hash: status === "PAID" ? f.txHash("payout") : null,
    paid_at: status === "PAID" ? f.now : null,
  };
};
