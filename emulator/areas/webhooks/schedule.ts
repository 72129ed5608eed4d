// The retry schedule (the live service says "up to 6 attempts with exponential
// backoff" and publishes no intervals; these are ours, documented in
// docs/webhooks.md). All waits are on the virtual clock.

export const MAX_ATTEMPTS = 6;

/** Wait after failed attempt n (index n-1) before attempt n+1. */
export const RETRY_DELAYS_MS: readonly number[] = [
  30_000, // attempt 2: 30 s after attempt 1
  120_000, // attempt 3: 2 min after attempt 2
  600_000, // attempt 4: 10 min after attempt 3
  3_600_000, // attempt 5: 1 h after attempt 4
  21_600_000, // attempt 6: 6 h after attempt 5
];

/** Offset of each attempt from the first one when every attempt fails at once: 0, 30 s, 2.5 min, 12.5 min, 72.5 min, 432.5 min. */
export const ATTEMPT_OFFSETS_MS: readonly number[] = RETRY_DELAYS_MS.reduce<number[]>((acc, d) => [...acc, acc[acc.length - 1] + d], [0]);

/** Delay before the next attempt after `attempts` failures, or null when the delivery has used them all. */
export function nextDelay(attempts: number): number | null {
  return attempts >= MAX_ATTEMPTS ? null : RETRY_DELAYS_MS[attempts - 1];
}
