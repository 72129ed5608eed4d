import type { Services } from "../../pipeline/services.ts";
import { own } from "../../state/own.ts";
import { mystery, type PartnerRow } from "./state.ts";

// A partner's facts as the rules and formatters read them: from the slice, where the seed step copied the
// fixture partners' (seed.ts), never from the fixtures at request time. An account with none seeded (a key made
// through the control plane or a world) has the defaults fixtures/mystery gives such accounts.

/** The facts of an account without seeded ones: its id as the slug, no KYC. */
const unseeded = (accountId: string): PartnerRow => ({ slug: accountId, kyc_required: false });

export const partnerOf = (s: Services, accountId: string): PartnerRow =>
  own(mystery(s).partners, accountId) ?? unseeded(accountId);

/** The account ids with seeded facts, in seeding order. */
export const seededPartners = (s: Services): string[] => Object.keys(mystery(s).partners);
