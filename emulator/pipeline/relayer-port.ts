import { documentedError, type ApiError } from "./errors.ts";
import { portSlot, runtimeSlot } from "./runtime.ts";
import type { Services } from "./services.ts";

// The relayer switch as other areas read it. The mystery area keeps the switch
// (POST /_emulator/mystery/relayer) and provides it when it starts; the instant
// area's custodial purchases are relayed too, so they pause with it. A port for
// the same reason as user-wallet-port.ts: areas must not import each other in a circle.

/** Provided by the mystery area when it starts, in each emulator's runtime. */
const SWITCH = portSlot<() => boolean>("relayer switch (the mystery area)");
const RESUMERS = runtimeSlot("relayer resumers", () => new Set<() => Promise<number>>());

export function provideRelayerSwitch(s: Services, on: () => boolean): void {
  s.runtime.provide(SWITCH, on);
}

/** Whether the relayer sends transactions now. */
export function relayerOn(s: Services): boolean {
  return s.runtime.of(SWITCH)();
}

/**
 * 503 relayer_disabled while an operator has the relayer off: `retryable: true` and the
 * Retry-After every retryable 503 carries (pipeline/errors.ts), so the SDK retries it.
 */
export function relayerDisabled(what: string): ApiError {
  return documentedError(503, "relayer_disabled", `The relayer is disabled; ${what}`);
}

/** An area whose relayed work waits while the relayer is off: `resume` relays it and answers how many it picked up. Returns unregister. */
export function onRelayerResumed(s: Services, resume: () => Promise<number>): () => void {
  const set = s.runtime.of(RESUMERS);
  set.add(resume);
  return () => set.delete(resume);
}

/** The relayer is back on: every other area resumes its waiting work; how many purchases were picked up. */
export async function resumeRelayed(s: Services): Promise<number> {
  let n = 0;
  for (const resume of s.runtime.of(RESUMERS)) n += await resume();
  return n;
}
