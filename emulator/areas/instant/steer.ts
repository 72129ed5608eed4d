import { instantWord } from "../../../chain/index.ts";
import { bundleCards, type BundleCard } from "../../../fixtures/instant/index.ts";
import { accountOf } from "../../control/account.ts";
import { defineControl, type ControlSpec } from "../../control/route.ts";
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
import { microsOfUsd } from "../../../contract/money.ts";
import { conflict, notFound } from "../../pipeline/errors.ts";
import { created, ok } from "../../pipeline/route.ts";
import { z } from "../../pipeline/schema.ts";
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
const steers = (s: Services) => s.store.slice(SLICE);

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

/** The word of a request whose purchase takes a steer (undefined: none does); the steer is used up. */
async function wordsFor(s: Services, requestId: bigint): Promise<bigint[] | undefined> {
  const p = Object.values(instant(s).purchases).find((r) => r.onchain_request_id === requestId.toString());
  if (!p) return undefined;
  const slice = steers(s);
  const steer = steerFor(slice, { ...p, tier_id: p.packet_type_id });
  if (!steer) return undefined;
  slice.pending = slice.pending.filter((r) => r.id !== steer.id);
  const plan = await planOpen(s, p.packet_type_id, steer).catch(() => null);
  if (!plan) return undefined; // drawn meanwhile by another purchase: the seed's words
  steers(s).applied[requestId.toString()] = {
    steer_id: steer.id,
    purchase_id: p.id,
    request_id: requestId.toString(),
    cards: steer.items,
  };
  return [instantWord(plan.position, plan.undrawn)];
}

/** Registers the word source with the chain (when there is one); returns its removal. */
export function startInstantSteering(s: Services): () => void {
  return s.chainHost?.addWordSource((id) => wordsFor(s, id)) ?? (() => {});
}

/** Queues a steer after checking that an undrawn bundle holds it (the 409 otherwise; nothing is kept). */
export async function addInstantSteer(s: Services, input: Omit<SteerRow, "id" | "created_at">): Promise<SteerRow> {
  let typeId = input.tier_id;
  if (input.purchase_id !== null) {
    const p = instant(s).purchases[input.purchase_id];
    if (!p) throw notFound(`No instant purchase ${input.purchase_id}`);
    if (p.fulfilled_at || p.status === "FAILED" || p.status === "REFUNDED")
      throw conflict("invalid_status", `Instant purchase ${p.id} is ${p.status}: its opening cannot be steered`);
    typeId = p.packet_type_id;
  }
  await planOpen(s, typeId!, input);
  const row: SteerRow = { ...input, id: s.store.nextId(COUNTERS.instantSteer), created_at: s.clock.nowIso() };
  steers(s).pending.push(row);
  return row;
}

export const instantSteerControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/instant/reveals",
    describe:
      "Steer an instant opening {purchase_id | tier_id = packet type (+ account_id | key, external_user_id): the next such purchase; items?: card ids all in one pack, band?: {min_usd, max_usd, rarity} of one card}: the VRF word is the position of an undrawn bundle holding them; 409 steer_unsatisfiable when none does",
    schema: {
      body: steerBody,
      responses: {
        201: { description: "The steer, waiting for its opening", data: SteerView },
        400: badInput,
        404: missing("purchase, packet type or key"),
        409: {
          description: "No undrawn bundle holds it, or the purchase has opened",
          codes: ["steer_unsatisfiable", "invalid_status"],
        },
      },
    },
    handle: async (c) => {
      const b = c.input.body;
      checkSteerBody(b);
      chainOf(c.services);
      const account = b.account_id !== undefined || b.key !== undefined ? accountOf(c.services, b) : null;
      const row = await addInstantSteer(c.services, {
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
    path: "/instant/reveals",
    describe: "Steered instant openings waiting for their purchase, and those applied",
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
