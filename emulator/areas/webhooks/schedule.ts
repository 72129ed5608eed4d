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

/** Delay before the next attempt after `attempts` failures, or null when the delivery has used them all. */
export function nextDelay(attempts: number): number | null {
  return attempts >= MAX_ATTEMPTS ? null : RETRY_DELAYS_MS[attempts - 1];
}
