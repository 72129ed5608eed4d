import {
  CardOS,
  CardOSError,
  PollTimeoutError,
  type InstantPurchase,
  type Purchase,
  type PollOptions,
  type Redemption,
  type RedemptionPrepareResult,
} from "@ripdotfun/cardos-sdk";
import type { Emulator } from "./helpers.ts";

// The official SDK (vendored: test/vendor/cardos-sdk) as the tests drive it: over real HTTP to the emulator,
// no retries, and its `waitFor*` helpers running their own poll loop, terminal states and errors while the
// emulator's virtual clock, not the wall, moves between polls.
//
// How the polling runs on virtual time: the SDK gets PollOptions with no wall wait (interval 0) and no wall
// timeout, and an `onPoll` that records each state and computes the wait the SDK's schedule would sleep next
// (1.5 s, ×1.5, up to the cap) against its budget in virtual time. That wait is not run at once: the SDK's
// next poll request (which comes only when the SDK saw no terminal state) runs it first — this client's
// `fetch` advances the emulator's clock, then forwards the request. So the clock moves exactly as far as the
// SDK would have slept, and not after the last poll; past the budget the next poll throws the SDK's
// PollTimeoutError with the last state seen.

interface Slot {
  emu: Emulator;
  /** The wait owed before the next poll request (set by `onPoll`). */
  next?: () => Promise<void>;
}
const slots = new WeakMap<CardOS, Slot>();

/** A client of the official SDK for `apiKey`, against `emu`. */
export function sdkFor(emu: Emulator, apiKey: string): CardOS {
  const slot: Slot = { emu };
  const transport = async (input: string | URL | Request, init?: RequestInit) => {
    const owed = slot.next;
    slot.next = undefined;
    await owed?.();
    return fetch(input, init);
  };
  const sdk = new CardOS({ apiKey, baseUrl: emu.url, maxRetries: 0, fetch: transport as typeof fetch });
  slots.set(sdk, slot);
  return sdk;
}

/** A waitFor schedule in virtual ms: first wait, growth, cap, give up once the next wait would pass `timeoutMs`. */
interface Budget {
  intervalMs: number;
  backoffFactor: number;
  maxIntervalMs: number;
  timeoutMs: number;
}
/** instant.waitForDelivery: the SDK's defaults (polling.ts; 180 s in resources/instant.ts) — docs/reference/sdk-shapes.md “Polling”. */
const DELIVERY: Budget = { intervalMs: 1_500, backoffFactor: 1.5, maxIntervalMs: 5_000, timeoutMs: 180_000 };
/**
 * redemption.waitForCompletion: the SDK's default 600 s / 5 s cap would expire before the warehouse ships (IN_FULFILLMENT
 * 1 h after the burn, COMPLETED 24 h later), as its own doc comment warns; a caller passes a longer budget, as here.
 */
const COMPLETION: Budget = {
  intervalMs: 1_500,
  backoffFactor: 1.5,
  maxIntervalMs: 30 * 60_000,
  timeoutMs: 48 * 3_600_000,
};

/** Runs one SDK `waitFor*` of `sdk` (one at a time per client) on the emulator's clock; its value and the states seen. */
export async function virtualPolling<T>(
  sdk: CardOS,
  budget: Budget,
  wait: (poll: PollOptions) => Promise<T>,
): Promise<{ value: T; seen: string[] }> {
  const slot = slots.get(sdk);
  if (!slot) throw new Error("virtualPolling needs a client made by sdkFor");
  const seen: string[] = [];
  let waited = 0;
  let interval = budget.intervalMs;
  let expired = false;
  let last: unknown;
  const onPoll = (value: unknown) => {
    if (expired) throw new PollTimeoutError(`Timed out after ${budget.timeoutMs}ms (virtual) of polling`, last);
    last = value;
    const status = (value as { status: string }).status;
    if (seen.at(-1) !== status) seen.push(status);
    if (waited + interval > budget.timeoutMs) {
      slot.next = async () => void (expired = true);
      return;
    }
    const ms = interval;
    slot.next = async () => void (await slot.emu.clock.advance(ms));
    waited += ms;
    interval = Math.min(budget.maxIntervalMs, interval * budget.backoffFactor);
  };
  try {
    const value = await wait({ intervalMs: 0, maxIntervalMs: 0, timeoutMs: Number.POSITIVE_INFINITY, onPoll });
    return { value, seen };
  } finally {
    slot.next = undefined;
  }
}

/** `sdk.instant.waitForDelivery(id)` on virtual time. */
export const waitForDelivery = (
  sdk: CardOS,
  id: number | string,
): Promise<{ value: InstantPurchase; seen: string[] }> =>
  virtualPolling(sdk, DELIVERY, (poll) => sdk.instant.waitForDelivery(id, poll));

/** gacha.waitForReveal: the SDK's defaults (1.5 s ×1.5 up to 5 s, 120 s) — docs/reference/sdk-shapes.md “Polling”. */
const REVEAL: Budget = { intervalMs: 1_500, backoffFactor: 1.5, maxIntervalMs: 5_000, timeoutMs: 120_000 };

/** `sdk.gacha.waitForReveal(id)` on virtual time. */
export const waitForReveal = (sdk: CardOS, id: number): Promise<{ value: Purchase; seen: string[] }> =>
  virtualPolling(sdk, REVEAL, (poll) => sdk.gacha.waitForReveal(id, poll));

/** `sdk.redemption.waitForCompletion(target)` on virtual time. */
export const waitForCompletion = (
  sdk: CardOS,
  target: RedemptionPrepareResult,
): Promise<{ value: Redemption; seen: string[] }> =>
  virtualPolling(sdk, COMPLETION, (poll) => sdk.redemption.waitForCompletion(target, poll));

/** The CardOSError a call rejects with (fails the test when it resolves or throws anything else). */
export async function apiError(call: Promise<unknown>): Promise<CardOSError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof CardOSError) return err;
    throw err;
  }
  throw new Error("expected an API error");
}
