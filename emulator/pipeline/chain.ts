import type { Chain } from "../../chain/index.ts";
import type { ChainHost } from "../chain-host.ts";
import { ApiError } from "./errors.ts";
import { withKeyLock } from "./key-lock.ts";
import type { RuntimeOwner } from "./runtime.ts";

/** The chain, or 503 chain_unavailable when the emulator runs without one (--no-chain). */
export function requireChain(services: { chainHost: ChainHost | null }): ChainHost {
  if (!services.chainHost)
    throw new ApiError(
      503,
      "chain_unavailable",
      "The local chain is not running (this emulator was started without one); start it with the chain",
      {
        retryable: false,
      },
    );
  return services.chainHost;
}

/** The chain gateway itself (addresses, clients, accounts), or 503 chain_unavailable. */
export const chainOf = (services: { chainHost: ChainHost | null }): Chain => requireChain(services).gateway;

/** The lock of VRF fulfilments (a state replacement takes it too: pipeline/generation.ts). */
export const VRF_LOCK = "vrf:fulfill";

/**
 * One VRF fulfilment at a time (operator actions that check a request is pending, then fulfil it):
 * a parallel caller sees the request fulfilled instead of racing into the coordinator's revert.
 */
export function withVrfTurn<T>(services: RuntimeOwner, fn: () => T | Promise<T>): Promise<T> {
  return withKeyLock(services, VRF_LOCK, fn);
}
