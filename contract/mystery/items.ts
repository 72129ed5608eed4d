import { z } from "../zod.ts";

// Mystery shapes several resources share (docs/mystery.md): what a revealed
// token resolved to.

/** What a revealed item resolved to; `unknown`: the token has no catalog row. */
export const ITEM_CATEGORIES = ["card", "product", "unknown"] as const;

/**
 * One item a purchase revealed. `card_id`, `rarity`, `card_number` and `set_id` are sent for
 * hydrated cards (`card_id` alone, as null, for an unknown token); an empty value is null.
 */
export const RevealItem = z.strictObject({
  token_id: z.string(),
  item_type: z.string().describe("CARD | GRADED_CARD | PACKET | SEALED_PRODUCT"),
  category: z.enum(ITEM_CATEGORIES),
  card_id: z.string().nullable().optional(),
  name: z.string().nullable(),
  image_url: z.string().nullable(),
  value_usd: z.string().nullable(),
  rarity: z.string().nullable().optional(),
  card_number: z.string().nullable().optional(),
  set_id: z.string().nullable().optional(),
});
export type RevealItem = z.output<typeof RevealItem>;
