import type { ApplicabilityContext } from "../types.ts";

// Probes of what the target offers, for `applicable` hooks. They use plain HTTP
// (not the control client) so they also work in read-only mode.

interface ChainInfo {
  rpcUrl: string | null;
}

/**
 * An emulator started with --no-chain answers GET /_emulator/chain with 503. Asked only with the
 * control plane (emulator mode): in read-only and sandbox mode the suite never calls /_emulator.
 */
export async function chainMissing({ http, control }: ApplicabilityContext): Promise<string | null> {
  if (!control) return null;
  const res = await http.get("/_emulator/chain");
  if (res.status === 503)
    return "needs the local chain, and the emulator runs without one (GET /_emulator/chain → 503 chain_unavailable)";
  return null;
}

/** Like chainMissing, and the chain must be served over JSON-RPC (scenarios sign with wallets over HTTP). */
export async function rpcMissing(ctx: ApplicabilityContext): Promise<string | null> {
  if (!ctx.control) return null;
  const missing = await chainMissing(ctx);
  if (missing) return missing;
  const res = await ctx.http.get("/_emulator/chain");
  if (res.status !== 200) return null;
  const info = (res.body as { data?: ChainInfo } | null)?.data;
  if (!info?.rpcUrl)
    return "signs transactions over JSON-RPC, and the emulator's chain has no rpcUrl (started in-process only)";
  return null;
}
