// The mutable state of one emulator: plain JSON (no Maps, no classes) so that
// snapshot = structuredClone and export/import = JSON. The catalog is derived
// from the seed and read-only, so it lives outside (see catalog/index.ts).

export type { BillingModel, KeyKind } from "../../contract/index.ts";
import type { BillingModel, KeyKind } from "../../contract/index.ts";

export interface KeyRecord {
  key: string;
  kind: KeyKind;
  label: string;
  scopes: string[];
  /** Partner keys only. */
  billing_model?: BillingModel;
  /** Partner or tenant account the key belongs to. */
  account_id: string;
  /** Per-key ceiling on Card Data and the warehouse API; the plan default is 300/min. */
  rate_limit_per_min: number;
  /** Per-key ceiling on partner commerce (mystery, instant, wallet, webhooks); absent = 240/min. */
  partner_rate_limit_per_min?: number;
  /** `fresh=true` calls per minute on the cached reads; absent = 10. */
  fresh_per_min?: number;
  active: boolean;
  created_at: string;
}

export interface CreditAccount {
  /** Included free credits; reset to 500 at each month start, never stacking. */
  free: number;
  /** Bought credits; never expire. */
  purchased: number;
  /** `YYYY-MM` (UTC) of the free pool's last reset. */
  free_period: string;
  /** Billed credits per `YYYY-MM`. */
  usage: Record<string, number>;
  /** Billed requests per `YYYY-MM`. */
  requests: Record<string, number>;
}

export interface State {
  seed: number;
  catalog_size: "default" | "large";
  keys: Record<string, KeyRecord>;
  credits: Record<string, CreditAccount>;
  /** Monotonic counters for ids (per name). */
  counters: Record<string, number>;
  /** Area slices, owned by their areas (each area reads/writes only its own). */
  areas: Record<string, unknown>;
}
