import { PARTNER_FIXTURES } from "../../../fixtures/mystery/index.ts";

// The mystery area's seed step (docs/architecture.md "Where an area's files go"): the one file of the area that
// reads the partner fixtures (fixtures/mystery). It copies each partner's facts into the slice when the slice is
// created (state.ts `init`), and into a slice saved before they were copied (state.ts `upgrade`); the rules and
// formatters read them from the slice (partners.ts), never from the fixtures.

/** A partner's facts as the slice keeps them (`partners`, by account id). */
export interface PartnerRow {
  /** The partner's slug: the purchase memo `<slug>-<id>`, partner stats' partner_slug. */
  slug: string;
  /** Whether redemptions run KYC first when no operator switch says otherwise (`kyc_required` of the slice). */
  kyc_required: boolean;
}

/** A seeded custodial end user (the slice's EndUserRow without the numeric id given on first reference). */
export interface SeededEndUser {
  external_user_id: string;
  wallet_address: string;
  balance_micros: string;
  reserved_micros: string;
}

/** Every fixture partner's facts, in the fixtures' order (the control overview lists them so). */
export function seedPartners(): Record<string, PartnerRow> {
  const out: Record<string, PartnerRow> = {};
  for (const p of PARTNER_FIXTURES) out[p.account_id] = { slug: p.slug, kyc_required: p.kyc_required };
  return out;
}

/** Every fixture partner's custodial end users, with their starting balances. */
export function seedEndUsers(): Record<string, Record<string, SeededEndUser>> {
  const out: Record<string, Record<string, SeededEndUser>> = {};
  for (const p of PARTNER_FIXTURES) {
    const users: Record<string, SeededEndUser> = (out[p.account_id] = {});
    for (const u of p.end_users)
      users[u.external_user_id] = {
        external_user_id: u.external_user_id,
        wallet_address: u.wallet_address,
        balance_micros: u.balance_micros,
        reserved_micros: "0",
      };
  }
  return out;
}

/**
 * A slice saved before the partner facts were seeded (no `partners`) gets the fixtures' facts, which such a
 * version read from the fixtures at every request: its answers stay as they were.
 */
export function upgradeMysterySlice(slice: Record<string, unknown>): void {
  if (!Object.hasOwn(slice, "partners")) slice.partners = seedPartners();
}
