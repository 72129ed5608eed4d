import { DEFAULT_TIERS, type TierConfig } from "../../../../chain/tiers.ts";
import { badRequest } from "../../../pipeline/errors.ts";
import type { Services } from "../../../pipeline/services.ts";

// Tiers come from the chain's deployed configuration (the same table without a chain,
// so shop reads and input validation work under --no-chain).

export const tiersOf = (s: Services): readonly TierConfig[] => s.chainHost?.gateway.tiers ?? DEFAULT_TIERS;

export function tierOf(s: Services, tierId: number): TierConfig {
  const t = tiersOf(s).find((x) => x.tierId === tierId);
  if (!t) throw badRequest("invalid_tier", `No tier ${tierId}; see GET /mystery/catalog for the tiers on sale`);
  return t;
}

/** The tiers' games as the shop listing names them (every tier is a Pokémon tier today). */
export const TIER_GAMES = [{ id: "pokemon", label: "Pokémon" }] as const;
export type TierGame = (typeof TIER_GAMES)[number];

/** A tier's game, as the shop listing and the feed rows name it; null for a tier without metadata (none is configured). */
export const tierGame = (s: Services, tierId: number): TierGame | null =>
  tiersOf(s).some((t) => t.tierId === tierId) ? TIER_GAMES[0] : null;
