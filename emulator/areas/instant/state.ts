import { z } from "zod";
import { address, count, decimal, hash32, isoTime, json, ownRecord, timeMs, uint } from "../../state/fields.ts";
import { defineSlice } from "../../state/slices.ts";
import type { Services } from "../../pipeline/services.ts";
import { own } from "../../state/own.ts";
import { seedInstantPartners, upgradeInstantSlice, type InstantPartnerRow } from "./seed.ts";

// The instant area's slice of the store: plain JSON, re-read on every use
// (restore/reset/import replace the whole object), exported with the rest.

export { INSTANT_STATUSES, type InstantStatus } from "../../../contract/index.ts";
import { INSTANT_STATUSES, type InstantStatus } from "../../../contract/index.ts";

export interface InstantCardRow {
  token_id: string;
  unique_id: string;
  card_id: string | null;
  name: string | null;
  card_number: string | null;
  rarity: string | null;
  is_chase: boolean | null;
  small_image_url: string | null;
  large_image_url: string | null;
  front_image_url: string | null;
  value_usd: string | null;
  set_id: string | null;
}

export interface InstantPackRow {
  unique_id: string;
  set_id: string;
  name: string;
  image_url: string | null;
  opened_at: string | null;
}

export interface InstantPurchaseRow {
  id: number;
  account_id: string;
  status: InstantStatus;
  custody: "CUSTODIAL" | "NON_CUSTODIAL";
  packet_type_id: number;
  set_id: string | null;
  product_id: string | null;
  price_micros: string;
  /** The VRF request id of the purchase transaction (decimal). */
  onchain_request_id: string | null;
  /** Null while a custodial purchase waits RESERVED for the relayer. */
  transaction_hash: string | null;
  purchaser_address: string;
  recipient_address: string;
  /** Attribution sent with submit (list filter; not on the wire shape). */
  external_user_id: string | null;
  failure_reason: string | null;
  reserved_at: string | null;
  submitted_at: string | null;
  fulfilled_at: string | null;
  created_at: string;
  /**
   * When the worker takes the purchase's next step (virtual-clock ms; contract/lifecycles/purchases.ts): the
   * relayer's pick-up while RESERVED / PENDING, the open timeout (vrf_timeout, paid back) while SUBMITTED;
   * null once done.
   */
  due_at_ms: number | null;
  pack: InstantPackRow | null;
  cards: InstantCardRow[] | null;
}

/** An event as the area's old log recorded it: read from older states, no longer written (emulator/events/log.ts). */
export interface InstantEventRow {
  type: string;
  account_id: string;
  key: string;
  data: Record<string, unknown>;
  at: string;
}

export interface InstantSlice {
  /** Operator switch: off → prepare and submit answer 503 instant_disabled. */
  enabled: boolean;
  /** Each fixture partner's slug by account id, copied in when the slice was seeded (seed.ts). */
  partners: Record<string, InstantPartnerRow>;
  purchases: Record<string, InstantPurchaseRow>;
  /** Older states only: the one event log is emulator/events/log.ts. */
  events?: InstantEventRow[];
}

/** A new slice: the partner fixtures' slugs copied in (seed.ts), no purchases yet. */
const initial = (): InstantSlice => ({ enabled: true, partners: seedInstantPartners(), purchases: {} });

const text = z.string();
const card = z.strictObject({
  token_id: uint,
  unique_id: text,
  card_id: text.nullable(),
  name: text.nullable(),
  card_number: text.nullable(),
  rarity: text.nullable(),
  is_chase: z.boolean().nullable(),
  small_image_url: text.nullable(),
  large_image_url: text.nullable(),
  front_image_url: text.nullable(),
  value_usd: decimal.nullable(),
  set_id: text.nullable(),
});
const purchase = z.strictObject({
  id: count,
  account_id: text,
  status: z.enum(INSTANT_STATUSES),
  custody: z.enum(["CUSTODIAL", "NON_CUSTODIAL"]),
  packet_type_id: count,
  set_id: text.nullable(),
  product_id: text.nullable(),
  price_micros: uint,
  onchain_request_id: uint.nullable(),
  transaction_hash: hash32.nullable(),
  purchaser_address: address,
  recipient_address: address,
  external_user_id: text.nullable(),
  failure_reason: text.nullable(),
  reserved_at: isoTime.nullable(),
  submitted_at: isoTime.nullable(),
  fulfilled_at: isoTime.nullable(),
  created_at: isoTime,
  due_at_ms: timeMs.nullable(),
  pack: z
    .strictObject({
      unique_id: text,
      set_id: text,
      name: text,
      image_url: text.nullable(),
      opened_at: isoTime.nullable(),
    })
    .nullable(),
  cards: z.array(card).nullable(),
});
const event = z.strictObject({ type: text, account_id: text, key: text, data: ownRecord(json), at: isoTime });

const INSTANT_SLICE = defineSlice<InstantSlice>({
  name: "instant",
  init: initial,
  schema: z.strictObject({
    enabled: z.boolean(),
    // Older files lack it: the upgrade seeds it before the check.
    partners: ownRecord(z.strictObject({ slug: text })),
    purchases: ownRecord(purchase),
    events: z.array(event).optional(),
  }),
  upgrade: upgradeInstantSlice,
});

export const instant = (s: Services): InstantSlice => s.store.slice(INSTANT_SLICE);

/** The partner's slug as the slice keeps it (seeded, seed.ts); an account without one seeded uses its id. */
export const partnerSlug = (s: Services, accountId: string): string =>
  own(instant(s).partners, accountId)?.slug ?? accountId;
