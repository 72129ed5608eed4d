import { slotChance, solveSlotWord, vrfWords, MAX_EXPECTED_TRIES, type SlotWant } from "../../../chain/index.ts";
import { steerSliceSchema, unsatisfiable, type SteerRow, type SteerSlice } from "../../control/steer.ts";
import { steering } from "../../control/steering.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import { microsOfUsd } from "../../../contract/money.ts";
import type { Services } from "../../pipeline/services.ts";
import { defineSlice } from "../../state/slices.ts";
import { groupCards } from "./shop/items.ts";
import { chainOf, mysteryPoolTier } from "./chain-io.ts";
import { mystery, isRevealed } from "./state.ts";
import { COUNTERS } from "../../state/ids.ts";

// Steered mystery reveals (issue 35): a test names card ids or a band for a purchase, the next purchase
// of an account / tier, or a world file's queue; the reveal's VRF words are solved so that MysteryPool
// itself picks a group (and value) holding them. Which catalog card stands for a minted token was always
// the emulator's choice (catalog/items.ts); a named card binds that choice for its slot.

const SLICE = defineSlice<SteerSlice>({
  name: "mystery-steers",
  init: () => ({ pending: [], applied: {} }),
  schema: steerSliceSchema,
});

/** One slot's want and the card it shows. */
interface SlotPlan {
  want: SlotWant;
  card: string | null;
}

/** Every slot's plan (null: left to chance), or the 409 naming what the tier (as MysteryPool holds it) lacks. */
export async function planReveal(s: Services, tierId: number, row: Pick<SteerRow, "items" | "band">) {
  const tier = await mysteryPoolTier(chainOf(s), tierId);
  if (!tier.exists || tier.slots.length === 0) throw notFound(`No tier ${tierId}`);
  const plans: Array<SlotPlan | null> = tier.slots.map(() => null);
  const missingItems: string[] = [];
  const feasible = (i: number, want: SlotWant) =>
    slotChance(tier.slots[i]!, tier.groups, want) * MAX_EXPECTED_TRIES >= 1;
  for (const cardId of row.items) {
    const slot = tier.slots.findIndex(
      (sl, i) =>
        plans[i] === null &&
        feasible(i, {
          groupIds: sl.groupIds.filter((g) => groupCards(s.catalog, g).some((r) => r.card.id === cardId)),
        }),
    );
    if (slot < 0) {
      missingItems.push(`card ${cardId} (in no free slot's groups of tier ${tierId})`);
      continue;
    }
    const groupIds = tier.slots[slot]!.groupIds.filter((g) =>
      groupCards(s.catalog, g).some((r) => r.card.id === cardId),
    );
    plans[slot] = { want: { groupIds }, card: cardId };
  }
  if (row.band) {
    const min = row.band.min_micros === null ? undefined : BigInt(row.band.min_micros);
    const max = row.band.max_micros === null ? undefined : BigInt(row.band.max_micros);
    const inBand = (micros: bigint) => (min === undefined || micros >= min) && (max === undefined || micros <= max);
    let placed = false;
    for (let i = 0; i < tier.slots.length && !placed; i++) {
      if (plans[i] !== null) continue;
      for (const g of tier.slots[i]!.groupIds) {
        const want = { groupIds: [g], minValue: min, maxValue: max };
        if (!feasible(i, want)) continue;
        // A rarity is the card's: the band binds the first card of that rarity (priced in the band) of the group.
        const card = row.band.rarity
          ? groupCards(s.catalog, g).find(
              (r) =>
                r.card.rarity === row.band!.rarity &&
                r.pricing?.market != null &&
                inBand(microsOfUsd(r.pricing.market)),
            )
          : undefined;
        if (row.band.rarity && !card) continue;
        plans[i] = { want, card: card?.card.id ?? null };
        placed = true;
        break;
      }
    }
    if (!placed) {
      const b = row.band;
      missingItems.push(
        `an item in the band ${b.min_micros ?? "0"}..${b.max_micros ?? "any"} micros${b.rarity ? ` of rarity ${b.rarity}` : ""} (no free slot's group of tier ${tierId} can draw one)`,
      );
    }
  }
  if (missingItems.length) throw unsatisfiable(`Tier ${tierId}`, missingItems);
  return { plans, tier };
}

/** Steered mystery reveals: each slot's word is solved so that the pool picks the planned group (and value). */
const MYSTERY_STEERING = steering({
  path: "/mystery/reveals",
  slice: SLICE,
  counter: COUNTERS.mysterySteer,
  ready: (s) => void chainOf(s),
  tierOfPurchase(s, purchaseId) {
    const p = mystery(s).purchases[purchaseId];
    if (!p) throw notFound(`No purchase ${purchaseId}`);
    if (isRevealed(p.status) || p.status === "FAILED" || p.status === "REFUNDED")
      throw conflict("invalid_status", `Purchase ${p.id} is ${p.status}: its reveal cannot be steered`);
    return p.tier_id;
  },
  purchaseOfRequest: (s, requestId) =>
    Object.values(mystery(s).purchases).find((r) => r.onchain_request_id === requestId),
  plan: planReveal,
  words(s, { plans, tier }, _steer, requestId) {
    const fallback = vrfWords(BigInt(s.options.seed), requestId, tier.slots.length);
    const words = plans.map((plan, i) =>
      plan ? (solveSlotWord(tier.slots[i]!, tier.groups, i, plan.want, requestId) ?? fallback[i]!) : fallback[i]!,
    );
    return { words, cards: plans.map((plan) => plan?.card ?? null) };
  },
  texts: {
    post: "Steer a reveal {purchase_id | tier_id (+ account_id | key, external_user_id): the next such purchase; items?: card ids, band?: {min_usd, max_usd, rarity}}: the VRF words are chosen so the pool picks them; 409 steer_unsatisfiable names what the tier cannot yield",
    created: "The steer, waiting for its reveal",
    missing: "purchase, tier or key",
    conflict: "The pool cannot yield it, or the purchase has revealed",
    get: "Steered reveals waiting for their purchase, and those applied (request id → bound cards)",
  },
});

/** The card a steered reveal bound to slot `index` of a request (undefined: the catalog's usual pick). */
export function steeredCard(s: Services, requestId: string, index: number): string | undefined {
  return MYSTERY_STEERING.steers(s).applied[requestId]?.cards[index] ?? undefined;
}

/** Registers the word source with the chain (when there is one); returns its removal. */
export const startSteering = MYSTERY_STEERING.start;

export const steerControl = MYSTERY_STEERING.controls;
