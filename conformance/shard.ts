import type { Check } from "./types.ts";

// Splitting one run across CI machines: `--shard i/n` runs a deterministic share of the
// selected checks (every n-th, starting at the i-th, so the long lifecycle checks spread
// out), and `conformance merge` joins the shards' JSON reports into the report one run
// would have written. Each shard's report names every check of the whole run, so the
// merge can tell a missing or repeated shard from a complete set.

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ShardInfo extends Shard {
  /** The ids of every check of the whole run (all shards), in run order. */
  checks: string[];
}

/** The most shards a run may be split into (a matrix wider than this is a typo). */
export const MAX_SHARDS = 256;

/** Parses `i/n` (1 ≤ i ≤ n ≤ 256); a message saying what is allowed otherwise. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  if (!m) return `--shard must be i/n, e.g. 2/4 (got "${text}")`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) return `--shard i/n: n must be 1 to ${MAX_SHARDS} (got ${count})`;
  if (index < 1 || index > count) return `--shard i/n: i must be 1 to ${count} (got ${index})`;
  return { index, count };
}

/** The checks shard `index` of `count` runs: every count-th of the selected, from the index-th. */
export function shardChecks<T extends Pick<Check, "id">>(selected: readonly T[], shard: Shard): T[] {
  return selected.filter((_, i) => i % shard.count === shard.index - 1);
}
