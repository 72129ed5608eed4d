import { parseUnits, isAddress, getAddress } from "viem";
import { ok } from "../pipeline/route.ts";
import { ApiError, badRequest } from "../pipeline/errors.ts";
import { requireChain } from "../pipeline/chain.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { z } from "../pipeline/schema.ts";
import { badInput, decimalString, missing, oneOf, opt, wholeUnits } from "./schemas.ts";

const amount = () => opt(wholeUnits());
/** Whole units → base units; more decimals than the token has is a 400 naming the field. */
function units(name: string, v: string | undefined, decimals: number): bigint | undefined {
  if (v === undefined) return undefined;
  try {
    return parseUnits(v, decimals);
  } catch {
    throw badRequest("invalid_value", `${name} has more than ${decimals} decimals`);
  }
}

const address = z.string().refine(isAddress, { error: "must be a 0x-prefixed 20-byte hex address", params: { code: "invalid_address" } });

export const chainControlRoutes: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/chain",
    describe: "rpcUrl, chainId, contract addresses, roles and the funded fixture accounts (with their test keys)",
    schema: {
      responses: {
        200: {
          description: "The local chain",
          data: z.object({
            rpcUrl: z.string(),
            chainId: z.number().int(),
            contracts: z.record(z.string(), z.string()),
            roles: z.record(z.string(), z.string()),
            accounts: z.array(z.object({ label: z.string(), address: z.string(), private_key: z.string() })),
          }),
        },
        503: { description: "Started with --no-chain", codes: ["chain_unavailable"] },
      },
    },
    handle: (c) => ok(requireChain(c.services).info()),
  }),
  defineControl({
    method: "POST",
    path: "/chain/faucet",
    describe: "Fund an address {address, usdc?, eth?} (whole units; default 1000 USDC and 1 ETH)",
    schema: {
      body: z.object({ address, usdc: amount(), eth: amount() }),
      responses: {
        200: {
          description: "Funded",
          data: z.object({ address: z.string(), usdc: z.string(), eth: z.string(), usdc_tx: z.string().nullable(), eth_tx: z.string().nullable() }),
        },
        400: { description: "A field is missing or invalid", codes: ["invalid_value", "invalid_address", "invalid_json"] },
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      const b = c.input.body;
      const usdc = units("usdc", b.usdc, 6);
      const eth = units("eth", b.eth, 18);
      const asked = usdc === undefined && eth === undefined ? { usdc: 1000n * 10n ** 6n, eth: 10n ** 18n } : { usdc, eth };
      const to = getAddress(b.address);
      const tx = await host.chain.faucet(to, asked);
      return ok({ address: to, usdc: String(asked.usdc ?? 0n), eth: String(asked.eth ?? 0n), usdc_tx: tx.usdcTx ?? null, eth_tx: tx.ethTx ?? null });
    },
  }),
  defineControl({
    method: "GET",
    path: "/vrf",
    describe: "VRF mode and pending request ids",
    schema: {
      responses: {
        200: { description: "VRF mode and pending requests", data: z.object({ mode: z.enum(["auto", "manual"]), delay_ms: z.number(), pending: z.array(z.string()) }) },
        503: { description: "Started with --no-chain", codes: ["chain_unavailable"] },
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      return ok({ mode: host.vrfMode, delay_ms: host.vrfDelayMs, pending: (await host.chain.pendingVrfRequests()).map(String) });
    },
  }),
  defineControl({
    method: "POST",
    path: "/vrf",
    describe: "Set the VRF mode {mode: auto|manual}",
    schema: { body: z.object({ mode: oneOf(["auto", "manual"]) }), responses: { 200: { description: "The mode", data: z.object({ mode: z.enum(["auto", "manual"]) }) }, 400: badInput } },
    handle: async (c) => {
      const host = requireChain(c.services);
      await host.setVrfMode(c.input.body.mode);
      return ok({ mode: host.vrfMode });
    },
  }),
  defineControl({
    method: "POST",
    path: "/vrf/fulfill",
    describe: "Fulfil a VRF request {request_id?, words?} (default: the oldest pending, words from the seed)",
    schema: {
      body: z.object({ request_id: opt(decimalString()), words: opt(z.array(decimalString())) }),
      responses: {
        200: { description: "Fulfilled", data: z.object({ request_id: z.string(), success: z.boolean(), tx_hash: z.string() }) },
        400: badInput,
        404: missing("pending VRF request"),
        409: { description: "No VRF request is pending", codes: ["nothing_pending"] },
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      const pending = await host.chain.pendingVrfRequests();
      const raw = c.input.body.request_id;
      let id: bigint | undefined;
      if (raw !== undefined) {
        id = BigInt(raw);
        if (!pending.includes(id)) throw new ApiError(404, "not_found", `VRF request ${raw} is not pending (pending: ${pending.join(", ") || "none"})`);
      } else if (pending.length === 0) throw new ApiError(409, "nothing_pending", "No VRF request is pending");
      const words = c.input.body.words?.map((w) => BigInt(w));
      const res = await host.chain.fulfillVrf(id, words);
      return ok({ request_id: String(res.requestId), success: res.success, tx_hash: res.txHash });
    },
  }),
];
