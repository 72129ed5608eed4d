import type { ChainHost } from "../chain-host.ts";
import { ApiError } from "./errors.ts";

/** The chain, or 503 chain_unavailable when the emulator runs without one (--no-chain). */
export function requireChain(services: { chain: ChainHost | null }): ChainHost {
  if (!services.chain)
    throw new ApiError(503, "chain_unavailable", "The local chain is not running (the emulator was started with --no-chain); restart without it", {
      retryable: false,
    });
  return services.chain;
}
