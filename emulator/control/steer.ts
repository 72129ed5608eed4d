import { z } from "zod";
import { count, isoTime } from "../state/fields.ts";
import { parseUsdc } from "../../contract/money.ts";
import { ApiError, badRequest } from "../pipeline/errors.ts";
import { opt, text } from "./schemas.ts";

// Steered reveals, the part the mystery and instant areas share: what an operator (or the world file)
// asks for, how it is kept until a reveal takes it, and the 409 when the pool cannot yield it.
// Each area solves its own contract's words (chain/steer.ts) and keeps its rows in its own slice.

/** A value band: [min_usd, max_usd] (whole dollars as decimals) and/or a card rarity. */
export const steerBand = z.object({
  min_usd: opt(z.union([z.string(), z.number()]).transform(String)),
  max_usd: opt(z.union([z.string(), z.number()]).transform(String)),
  rarity: opt(text()),
});

/** Which reveal: one purchase, or the next of an account (and/or tier / end user); what: card ids and/or a band. */
export const steerBody = z.object({
  purchase_id: opt(z.number().int().min(1)),
  account_id: opt(text()),
  key: opt(text()),
  tier_id: opt(z.number().int().min(1)),
  external_user_id: opt(text()),
  items: opt(z.array(text()).min(1).max(10)),
  band: opt(steerBand),
});
export type SteerBody = z.output<typeof steerBody>;

export interface SteerBand {
  min_micros: string | null;
  max_micros: string | null;
  rarity: string | null;
}

/** One asked-for reveal, waiting for the reveal it names. */
export interface SteerRow {
  id: number;
  purchase_id: number | null;
  account_id: string | null;
  /** The tier (mystery) or packet type (instant) of the next purchase. */
  tier_id: number | null;
  external_user_id: string | null;
  items: string[];
  band: SteerBand | null;
  created_at: string;
}

/** A reveal that took a steer: its request and what each slot (mystery) or the pack (instant) was bound to. */
export interface SteerApplied {
  steer_id: number;
  purchase_id: number;
  request_id: string;
  /** Mystery: the card id each slot shows (null: the catalog's usual pick). */
  cards: Array<string | null>;
}

export interface SteerSlice {
  pending: SteerRow[];
  /** Request id → what its reveal was bound to. */
  applied: Record<string, SteerApplied>;
}

const micros = z.string().regex(/^\d+$/).nullable();
export const steerSliceSchema = z.strictObject({
  pending: z.array(
    z.strictObject({
      id: count,
      purchase_id: count.nullable(),
      account_id: z.string().nullable(),
      tier_id: count.nullable(),
      external_user_id: z.string().nullable(),
      items: z.array(z.string()),
      band: z.strictObject({ min_micros: micros, max_micros: micros, rarity: z.string().nullable() }).nullable(),
      created_at: isoTime,
    }),
  ),
  applied: z.record(
    z.string(),
    z.strictObject({
      steer_id: count,
      purchase_id: count,
      request_id: z.string(),
      cards: z.array(z.string().nullable()),
    }),
  ),
}) as z.ZodType<SteerSlice>;

/** The band in micros; 400 when an amount is not a decimal or min > max. */
export function parseBand(band: z.output<typeof steerBand> | undefined): SteerBand | null {
  if (!band) return null;
  const amount = (name: string, v: string | undefined) => {
    if (v === undefined) return null;
    const m = parseUsdc(v);
    if (m === null) throw badRequest("invalid_value", `band.${name} must be a non-negative decimal USD amount`);
    return m;
  };
  const min = amount("min_usd", band.min_usd);
  const max = amount("max_usd", band.max_usd);
  if (min !== null && max !== null && min > max)
    throw badRequest("invalid_value", "band.min_usd is above band.max_usd");
  return { min_micros: min?.toString() ?? null, max_micros: max?.toString() ?? null, rarity: band.rarity ?? null };
}

/** 400 unless the body names exactly one target and something to yield. */
export function checkSteerBody(body: SteerBody): void {
  if (!body.items && !body.band) throw badRequest("invalid_value", "name items (card ids) and/or a band");
  if (body.purchase_id !== undefined && (body.account_id ?? body.key ?? body.tier_id ?? body.external_user_id))
    throw badRequest("invalid_value", "purchase_id names one purchase: no account, key, tier or end user with it");
  if (body.purchase_id === undefined && body.tier_id === undefined)
    throw badRequest("invalid_value", "name a purchase_id, or the tier of the next purchase (tier_id)");
}

/** The 409 of a request the pool cannot yield, naming what is missing. */
export const unsatisfiable = (what: string, missing: string[]) =>
  new ApiError(409, "steer_unsatisfiable", `${what} cannot yield: ${missing.join("; ")}`, {
    details: { missing },
  });

/** The first pending steer a purchase takes: its own id first, then the next-purchase ones in order. */
export function steerFor(
  slice: SteerSlice,
  p: { id: number; account_id: string; tier_id: number; external_user_id: string | null },
): SteerRow | undefined {
  return (
    slice.pending.find((r) => r.purchase_id === p.id) ??
    slice.pending.find(
      (r) =>
        r.purchase_id === null &&
        (r.tier_id === null || r.tier_id === p.tier_id) &&
        (r.account_id === null || r.account_id === p.account_id) &&
        (r.external_user_id === null || r.external_user_id === p.external_user_id),
    )
  );
}

/** How a steer reads on the control plane. */
export const formatSteer = (r: SteerRow) => ({
  id: r.id,
  purchase_id: r.purchase_id,
  account_id: r.account_id,
  tier_id: r.tier_id,
  external_user_id: r.external_user_id,
  items: r.items,
  band: r.band,
  created_at: r.created_at,
});

export const SteerView = z.object({
  id: z.number(),
  purchase_id: z.number().nullable(),
  account_id: z.string().nullable(),
  tier_id: z.number().nullable(),
  external_user_id: z.string().nullable(),
  items: z.array(z.string()),
  band: z.object({ min_micros: micros, max_micros: micros, rarity: z.string().nullable() }).nullable(),
  created_at: z.string(),
});
