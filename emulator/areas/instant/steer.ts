import { instantWord } from "../../../chain/index.ts";
import { bundleCards, type BundleCard } from "../../../fixtures/instant/index.ts";
import { steerSliceSchema, unsatisfiable, type SteerRow, type SteerSlice } from "../../control/steer.ts";
import { steering } from "../../control/steering.ts";
import { microsOfUsd } from "../../../contract/money.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import type { Services } from "../../pipeline/services.ts";
import { defineSlice } from "../../state/slices.ts";
import { chainOf, packetType, undrawnBundles } from "./chain-io.ts";
import { instant } from "./state.ts";
import { COUNTERS } from "../../state/ids.ts";

// Steered instant reveals (issue 35): the pack's cards are a pre-built bundle (fixtures/instant), and
// InstantPack draws the bundle at position `word % undrawn`. So the steer finds an undrawn bundle holding
// the named cards (or a card in the band) and fulfils with its position: the contract draws it itself.

const SLICE = defineSlice<SteerSlice>({
  name: "instant-steers",
  init: () => ({ pending: [], applied: {} }),
  schema: steerSliceSchema,
});

function fits(cards: readonly BundleCard[], row: Pick<SteerRow, "items" | "band">): boolean {
  if (!row.items.every((id) => cards.some((c) => c.card_id === id))) return false;
  const b = row.band;
  if (!b) return true;
  return cards.some((c) => {
    if (b.rarity !== null && c.rarity !== b.rarity) return false;
    if (b.min_micros === null && b.max_micros === null) return true;
    if (c.market_usd === null) return false;
    const m = microsOfUsd(c.market_usd);
    return (b.min_micros === null || m >= BigInt(b.min_micros)) && (b.max_micros === null || m <= BigInt(b.max_micros));
  });
}

/** The position of the first undrawn bundle that holds what the steer asks (the 409 naming it otherwise). */
async function planOpen(s: Services, packetTypeId: number, row: Pick<SteerRow, "items" | "band">, taken = 0) {
  const chain = chainOf(s);
  const bundles = await undrawnBundles(chain, packetTypeId);
  if (!bundles) throw notFound(`No packet type ${packetTypeId}`);
  const cardsPerPack = (await packetType(chain, packetTypeId))?.cardsPerPack ?? 0;
  const position = bundles.findIndex(
    (b, pos) => pos >= taken && fits(bundleCards(s.catalog, s.options.seed, packetTypeId, b, cardsPerPack), row),
  );
  if (position < 0) {
    const missingItems = [
      ...row.items.map((id) => `card ${id}`),
      ...(row.band
        ? [
            `a card in the band ${row.band.min_micros ?? "0"}..${row.band.max_micros ?? "any"} micros${row.band.rarity ? ` of rarity ${row.band.rarity}` : ""}`,
          ]
        : []),
    ];
    throw unsatisfiable(`No undrawn bundle of packet type ${packetTypeId}`, [
      `${missingItems.join(" with ")} together`,
    ]);
  }
  return { position, undrawn: bundles.length };
}

/** Steered instant openings: the word is the position of an undrawn bundle holding what the steer asks. */
const INSTANT_STEERING = steering({
  path: "/instant/reveals",
  slice: SLICE,
  counter: COUNTERS.instantSteer,
  ready: (s) => void chainOf(s),
  tierOfPurchase(s, purchaseId) {
    const p = instant(s).purchases[purchaseId];
    if (!p) throw notFound(`No instant purchase ${purchaseId}`);
    if (p.fulfilled_at || p.status === "FAILED" || p.status === "REFUNDED")
      throw conflict("invalid_status", `Instant purchase ${p.id} is ${p.status}: its opening cannot be steered`);
    return p.packet_type_id;
  },
  purchaseOfRequest(s, requestId) {
    const p = Object.values(instant(s).purchases).find((r) => r.onchain_request_id === requestId);
    return p && { ...p, tier_id: p.packet_type_id };
  },
  plan: (s, packetTypeId, row) => planOpen(s, packetTypeId, row),
  words: (_s, plan, steer) => ({ words: [instantWord(plan.position, plan.undrawn)], cards: steer.items }),
  texts: {
    post: "Steer an instant opening {purchase_id | tier_id = packet type (+ account_id | key, external_user_id): the next such purchase; items?: card ids all in one pack, band?: {min_usd, max_usd, rarity} of one card}: the VRF word is the position of an undrawn bundle holding them; 409 steer_unsatisfiable when none does",
    created: "The steer, waiting for its opening",
    missing: "purchase, packet type or key",
    conflict: "No undrawn bundle holds it, or the purchase has opened",
    get: "Steered instant openings waiting for their purchase, and those applied",
  },
});

/** Registers the word source with the chain (when there is one); returns its removal. */
export const startInstantSteering = INSTANT_STEERING.start;

export const instantSteerControl = INSTANT_STEERING.controls;
