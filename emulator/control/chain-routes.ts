import { parseUnits, isAddress, getAddress } from "viem";
import { ok } from "../pipeline/route.ts";
import { ApiError, badRequest } from "../pipeline/errors.ts";
import { requireChain } from "../pipeline/chain.ts";
import type { ControlSpec } from "./route.ts";
import { optString, reqString } from "./body.ts";

function amount(body: Record<string, unknown>, name: string, decimals: number): bigint | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if ((typeof v !== "string" && typeof v !== "number") || !/^\d+(\.\d+)?$/.test(String(v)))
    throw badRequest("invalid_value", `${name} must be a non-negative decimal amount in whole units (e.g. "250" or "0.5")`);
  try {
    return parseUnits(String(v), decimals);
  } catch {
    throw badRequest("invalid_value", `${name} has more than ${decimals} decimals`);
  }
}

export const chainControlRoutes: ControlSpec[] = [
  {
    method: "GET",
    path: "/chain",
    describe: "rpcUrl, chainId, contract addresses, roles and the funded fixture accounts (with their test keys)",
    handle: (c) => ok(requireChain(c.services).info()),
  },
  {
    method: "POST",
    path: "/chain/faucet",
    describe: "Fund an address {address, usdc?, eth?} (whole units; default 1000 USDC and 1 ETH)",
    handle: async (c) => {
      const host = requireChain(c.services);
      const address = reqString(c.body, "address");
      if (!isAddress(address)) throw badRequest("invalid_address", "address must be a 0x-prefixed 20-byte hex address");
      const usdc = amount(c.body, "usdc", 6);
      const eth = amount(c.body, "eth", 18);
      const asked = usdc === undefined && eth === undefined ? { usdc: 1000n * 10n ** 6n, eth: 10n ** 18n } : { usdc, eth };
      const tx = await host.chain.faucet(getAddress(address), asked);
      return ok({ address: getAddress(address), usdc: String(asked.usdc ?? 0n), eth: String(asked.eth ?? 0n), usdc_tx: tx.usdcTx ?? null, eth_tx: tx.ethTx ?? null });
    },
  },
  {
    method: "GET",
    path: "/vrf",
    describe: "VRF mode and pending request ids",
    handle: async (c) => {
      const host = requireChain(c.services);
      return ok({ mode: host.vrfMode, delay_ms: host.vrfDelayMs, pending: (await host.chain.pendingVrfRequests()).map(String) });
    },
  },
  {
    method: "POST",
    path: "/vrf",
    describe: "Set the VRF mode {mode: auto|manual}",
    handle: async (c) => {
      const host = requireChain(c.services);
      await host.setVrfMode(reqString(c.body, "mode", ["auto", "manual"]) as "auto" | "manual");
      return ok({ mode: host.vrfMode });
    },
  },
  {
    method: "POST",
    path: "/vrf/fulfill",
    describe: "Fulfil a VRF request {request_id?, words?} (default: the oldest pending, words from the seed)",
    handle: async (c) => {
      const host = requireChain(c.services);
      const pending = await host.chain.pendingVrfRequests();
      const raw = optString(c.body, "request_id") ?? (typeof c.body.request_id === "number" ? String(c.body.request_id) : undefined);
      let id: bigint | undefined;
      if (raw !== undefined) {
        if (!/^\d+$/.test(raw)) throw badRequest("invalid_value", "request_id must be a decimal integer string");
        id = BigInt(raw);
        if (!pending.includes(id)) throw new ApiError(404, "not_found", `VRF request ${raw} is not pending (pending: ${pending.join(", ") || "none"})`);
      } else if (pending.length === 0) throw new ApiError(409, "nothing_pending", "No VRF request is pending");
      let words: bigint[] | undefined;
      if (c.body.words !== undefined) {
        if (!Array.isArray(c.body.words) || c.body.words.some((w) => !/^\d+$/.test(String(w))))
          throw badRequest("invalid_value", "words must be an array of decimal integer strings");
        words = (c.body.words as unknown[]).map((w) => BigInt(String(w)));
      }
      const res = await host.chain.fulfillVrf(id, words);
      return ok({ request_id: String(res.requestId), success: res.success, tx_hash: res.txHash });
    },
  },
];
