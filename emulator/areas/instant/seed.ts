import { PARTNER_FIXTURES } from "../../../fixtures/mystery/index.ts";

// The instant area's seed step (docs/architecture.md "Where an area's files go"): the one file of the area that
// reads the partner fixtures (fixtures/mystery). It copies each partner's slug into the slice when the slice is
// created (state.ts `init`), and into a slice saved before it did (state.ts `upgrade`); the formatter reads the
// slug from the slice (format.ts), never from the fixtures.

/** A partner's facts as the instant slice keeps them (`partners`, by account id). */
export interface InstantPartnerRow {
  /** The partner's slug: the purchase memo `<slug>-instant-<id>`. */
  slug: string;
}

/** Every fixture partner's slug, in the fixtures' order. */
export function seedInstantPartners(): Record<string, InstantPartnerRow> {
  const out: Record<string, InstantPartnerRow> = {};
  for (const p of PARTNER_FIXTURES) out[p.account_id] = { slug: p.slug };
  return out;
}

/** A slice saved before the slugs were seeded gets the fixtures' (what such a version read at every request). */
export function upgradeInstantSlice(slice: Record<string, unknown>): void {
  if (!Object.hasOwn(slice, "partners")) slice.partners = seedInstantPartners();
}
