import type { RelayerTrigger } from "../../contract/lifecycles/purchases.ts";
import { relayerOn } from "./relayer-port.ts";
import type { Services } from "./services.ts";

// The relayer's part of a custodial purchase, one for mystery and instant packs
// (contract/lifecycles/purchases.ts): a held purchase that comes due is sent on
// chain while the relayer is on; while it is off a RESERVED one waits PENDING
// with its hold, and a PENDING one whose wait ran out fails, its hold released.

/** The reason a held purchase fails when the relayer stayed off. */
export const RELAYER_GONE = "relayer_unavailable: the relayer stayed off; the hold was released";

/** A held purchase waits for the relayer (RESERVED or PENDING). */
export const isHeld = (status: string): boolean => status === "RESERVED" || status === "PENDING";

export interface HeldPurchase {
  status: string;
  /** Fires a relayer move through the area's lifecycle (its ledger and events). */
  fire(trigger: RelayerTrigger, failureReason?: string): void;
  /** The area's purchase on chain, for a relayer that is on. */
  send(): Promise<void>;
}

/** Takes the relayer's due step of one held purchase. */
export function relayHeld(s: Services, p: HeldPurchase): Promise<void> | void {
  if (relayerOn(s)) return p.send();
  if (p.status === "RESERVED") return p.fire("relayer_off");
  p.fire("pending_timeout", RELAYER_GONE);
}

/** The relayer is back: every PENDING purchase is due now; how many. */
export function resumeHeld(rows: readonly { status: string; fire: HeldPurchase["fire"] }[]): number {
  let n = 0;
  for (const p of rows)
    if (p.status === "PENDING") {
      p.fire("resume");
      n++;
    }
  return n;
}
