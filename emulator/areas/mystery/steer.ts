import { slotChance, solveSlotWord, vrfWords, MAX_EXPECTED_TRIES, type SlotWant } from "../../../chain/index.ts";
import { defineControl, type ControlSpec } from "../../control/route.ts";
import { accountOf } from "../../control/account.ts";
import { badInput, missing } from "../../control/schemas.ts";
import {
  checkSteerBody,
  formatSteer,
  parseBand,
  steerBody,
  steerFor,
  steerSliceSchema,
  SteerView,
  unsatisfiable,
  type SteerRow,
  type SteerSlice,
} from "../../control/steer.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import { microsOfUsd } from "../../../contract/money.ts";
import { created, ok } from "../../pipeline/route.ts";
import { z } from "../../pipeline/schema.ts";
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
const steers = (s: Services) => s.store.slice(SLICE);

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

/** The words of a request whose purchase takes a steer (undefined: none does); the steer is used up. */
async function wordsFor(s: Services, requestId: bigint): Promise<bigint[] | undefined> {
  const p = Object.values(mystery(s).purchases).find((r) => r.onchain_request_id === requestId.toString());
  if (!p) return undefined;
  const slice = steers(s);
  const steer = steerFor(slice, p);
  if (!steer) return undefined;
  slice.pending = slice.pending.filter((r) => r.id !== steer.id);
  // The tier on chain may have changed since the steer was checked: then the reveal draws as usual.
  const planned = await planReveal(s, p.tier_id, steer).catch(() => null);
  if (!planned) return undefined;
  const { plans, tier } = planned;
  const fallback = vrfWords(BigInt(s.options.seed), requestId, tier.slots.length);
  const words = plans.map((plan, i) =>
    plan ? (solveSlotWord(tier.slots[i]!, tier.groups, i, plan.want, requestId) ?? fallback[i]!) : fallback[i]!,
  );
  steers(s).applied[requestId.toString()] = {
    steer_id: steer.id,
    purchase_id: p.id,
    request_id: requestId.toString(),
    cards: plans.map((plan) => plan?.card ?? null),
  };
  return words;
}

/** The card a steered reveal bound to slot `index` of a request (undefined: the catalog's usual pick). */
export function steeredCard(s: Services, requestId: string, index: number): string | undefined {
  return steers(s).applied[requestId]?.cards[index] ?? undefined;
}

/** Registers the word source with the chain (when there is one); returns its removal. */
export function startSteering(s: Services): () => void {
  return s.chainHost?.addWordSource((id) => wordsFor(s, id)) ?? (() => {});
}

/** Queues a steer after checking that the tier's pool can yield it (the 409 otherwise; nothing is kept). */
export async function addSteer(s: Services, input: Omit<SteerRow, "id" | "created_at">): Promise<SteerRow> {
  let tierId = input.tier_id;
  if (input.purchase_id !== null) {
    const p = mystery(s).purchases[input.purchase_id];
    if (!p) throw notFound(`No purchase ${input.purchase_id}`);
    if (isRevealed(p.status) || p.status === "FAILED" || p.status === "REFUNDED")
      throw conflict("invalid_status", `Purchase ${p.id} is ${p.status}: its reveal cannot be steered`);
    tierId = p.tier_id;
  }
  await planReveal(s, tierId!, input);
  const row: SteerRow = { ...input, id: s.store.nextId(COUNTERS.mysterySteer), created_at: s.clock.nowIso() };
  steers(s).pending.push(row);
  return row;
}

export const steerControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/reveals",
    describe:
      "Steer a reveal {purchase_id | tier_id (+ account_id | key, external_user_id): the next such purchase; items?: card ids, band?: {min_usd, max_usd, rarity}}: the VRF words are chosen so the pool picks them; 409 steer_unsatisfiable names what the tier cannot yield",
    schema: {
      body: steerBody,
      responses: {
        201: { description: "The steer, waiting for its reveal", data: SteerView },
        400: badInput,
        404: missing("purchase, tier or key"),
        409: {
          description: "The pool cannot yield it, or the purchase has revealed",
          codes: ["steer_unsatisfiable", "invalid_status"],
        },
      },
    },
    handle: async (c) => {
      const b = c.input.body;
      checkSteerBody(b);
      chainOf(c.services);
      const account = b.account_id !== undefined || b.key !== undefined ? accountOf(c.services, b) : null;
      const row = await addSteer(c.services, {
        purchase_id: b.purchase_id ?? null,
        account_id: account,
        tier_id: b.tier_id ?? null,
        external_user_id: b.external_user_id ?? null,
        items: b.items ?? [],
        band: parseBand(b.band),
      });
      return created(formatSteer(row));
    },
  }),
  defineControl({
    method: "GET",
    path: "/mystery/reveals",
    describe: "Steered reveals waiting for their purchase, and those applied (request id → bound cards)",
    schema: {
      responses: {
        200: {
          description: "Pending and applied steers",
          data: z.object({
            pending: z.array(SteerView),
            applied: z.array(
              z.object({
                steer_id: z.number(),
                purchase_id: z.number(),
                request_id: z.string(),
                cards: z.array(z.string().nullable()),
              }),
            ),
          }),
        },
      },
    },
    handle: (c) => {
      const slice = steers(c.services);
      return ok({ pending: slice.pending.map(formatSteer), applied: Object.values(slice.applied) });
    },
  }),
];
