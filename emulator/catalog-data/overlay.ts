import { readFileSync } from "node:fs";
import { CardBase, CardPricing, Expansion, SealedPricing, SealedProductBase, GAMES } from "../../contract/index.ts";
import { z } from "../../contract/zod.ts";
import type { Catalog, CardRecord, ExpansionRecord, SealedRecord } from "./model.ts";
import { OverlayError } from "./overlay-error.ts";

export { OverlayError } from "./overlay-error.ts";

// A catalog overlay (`npx emulator fixtures import DIR` writes one from recorded answers): cards,
// expansions and sealed products in the contract's wire shapes, laid over the seeded catalog
// (`--catalog-overlay FILE`). A record whose game and id the seed has replaces it; any other is added.

const game = z.enum(GAMES);
export const CatalogOverlay = z.object({
  catalog_overlay: z.literal(1),
  expansions: z.array(z.object({ game, expansion: Expansion })),
  cards: z.array(z.object({ game, card: CardBase, pricing: CardPricing.partial({ conditions: true }).optional() })),
  sealed: z.array(z.object({ game, product: SealedProductBase, pricing: SealedPricing.optional() })),
});
export type CatalogOverlay = z.output<typeof CatalogOverlay>;

export function loadOverlay(file: string): CatalogOverlay {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new OverlayError(`catalog overlay ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = CatalogOverlay.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new OverlayError(
      `catalog overlay ${file} is not an overlay (npx emulator fixtures import): ${issue.path.join(".")}: ${issue.message}`,
    );
  }
  // Prices become micros on use (mystery values, buyback): a negative one would fail there, so it fails here.
  const priced = [...parsed.data.cards, ...parsed.data.sealed].find((r) => r.pricing && hasNegative(r.pricing));
  if (priced)
    throw new OverlayError(
      `catalog overlay ${file}: a negative price on ${priced.game} ${"card" in priced ? priced.card.id : priced.product.id}`,
    );
  return parsed.data;
}

const hasNegative = (v: unknown): boolean =>
  typeof v === "number"
    ? v < 0
    : Array.isArray(v)
      ? v.some(hasNegative)
      : v !== null && typeof v === "object"
        ? Object.entries(v).some(([k, x]) => k !== "trend_7d" && k !== "trend" && hasNegative(x))
        : false;

const key = (g: string, id: string) => `${g}:${id.toLowerCase()}`;

/** The seeded catalog with the overlay's records laid over it (the seed's own flags kept on a replaced card). */
export function applyOverlay(catalog: Catalog, overlay: CatalogOverlay): Catalog {
  const expansions = merge(
    catalog.expansions,
    (r) => key(r.game, r.expansion.id),
    overlay.expansions,
    (o, old): ExpansionRecord => ({
      game: o.game,
      listed: old?.listed ?? true,
      ...(old?.series_id !== undefined ? { series_id: old.series_id } : {}),
      card_count: { total: o.expansion.total, official: o.expansion.printed_total ?? o.expansion.total },
      expansion: o.expansion,
    }),
  );
  const cards = merge(
    catalog.cards,
    (r) => key(r.game, r.card.id),
    overlay.cards,
    (o, old): CardRecord => ({
      game: o.game,
      card: o.card,
      is_variant: old?.is_variant ?? false,
      is_holo: old?.is_holo ?? /holo/i.test(o.card.rarity ?? ""),
      is_reverse: old?.is_reverse ?? false,
      is_first_edition: old?.is_first_edition ?? false,
      ...(o.pricing ? { pricing: o.pricing } : old?.pricing ? { pricing: old.pricing } : {}),
    }),
  );
  const sealed = merge(
    catalog.sealed,
    (r) => key(r.game, r.product.id),
    overlay.sealed,
    (o, old): SealedRecord => ({
      game: o.game,
      product: o.product,
      ...(o.pricing ? { pricing: o.pricing } : old?.pricing ? { pricing: old.pricing } : {}),
    }),
  );
  return { ...catalog, expansions, cards, sealed };
}

function merge<R, O extends { game: string }>(
  base: readonly R[],
  keyOf: (r: R) => string,
  over: readonly O[],
  make: (o: O, old: R | undefined) => R,
): R[] {
  const out = [...base];
  const at = new Map(out.map((r, i) => [keyOf(r), i] as const));
  for (const o of over) {
    const rec = make(o, undefined);
    const k = keyOf(rec);
    const i = at.get(k);
    if (i === undefined) {
      at.set(k, out.length);
      out.push(rec);
    } else out[i] = make(o, out[i]);
  }
  return out;
}
