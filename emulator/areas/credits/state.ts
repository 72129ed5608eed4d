import { z } from "zod";
import { address, count, finite, hash32, isoTime, json, ownRecord, uint } from "../../state/fields.ts";
import { defineSlice } from "../../state/slices.ts";
import type { Store } from "../../state/store.ts";

// The credits area's slice of the store: settled top-ups, keyed by the
// settlement transaction hash (a transaction can never credit twice), and an
// index from the signed authorization (payer + EIP-3009 nonce) to that hash so
// a retried payment finds its original result before touching the chain.

export interface TopupRecord {
  tx_hash: string;
  /** The API key credited. */
  key: string;
  usd: number;
  credits_granted: number;
  /** Balance right after the grant (the original result replays return). */
  balance_credits: number;
  payer: string;
  network: string;
  /** Stablecoin atomic units transferred. */
  amount: string;
  settled_at: string;
  /** The x402 SettleResponse sent in PAYMENT-RESPONSE. */
  payment_response: Record<string, unknown>;
}

export interface CreditsSlice {
  topups: Record<string, TopupRecord>;
  /** `${payer lower-case}:${nonce}` → tx hash. */
  by_authorization: Record<string, string>;
}

const CREDITS_SLICE = defineSlice<CreditsSlice>({
  name: "credits",
  init: () => ({ topups: {}, by_authorization: {} }),
  schema: z.strictObject({
    topups: ownRecord(
      z.strictObject({
        tx_hash: hash32,
        key: z.string(),
        usd: finite.min(0),
        credits_granted: count,
        balance_credits: count,
        payer: address,
        network: z.string(),
        amount: uint,
        settled_at: isoTime,
        payment_response: ownRecord(json),
      }),
    ),
    by_authorization: ownRecord(hash32),
  }),
});

export const creditsSlice = (store: Store): CreditsSlice => store.slice(CREDITS_SLICE);

export const authorizationKey = (from: string, nonce: string) => `${from.toLowerCase()}:${nonce.toLowerCase()}`;
