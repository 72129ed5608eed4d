import { isAddress, getAddress } from "../../chain/evm.ts";
import { formatUnits, parseUnits } from "../../chain/viem-late.ts";
import { usdStablecoinAbi } from "../../chain/index.ts";
import { ok } from "../pipeline/route.ts";
import { ApiError, badRequest } from "../pipeline/errors.ts";
import { requireChain, withVrfTurn } from "../pipeline/chain.ts";
import { CHAIN_ROLES } from "../chain-host.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { z } from "../pipeline/schema.ts";
import { badInput, decimalString, listLimit, missing, oneOf, opt, UINT256_LIMIT, wholeUnits } from "./schemas.ts";
import { isoOf } from "../../contract/time.ts";

const amount = () => opt(wholeUnits());
/** Whole units → base units; more decimals than the token has is a 400 naming the field. */
function units(name: string, v: string | undefined, decimals: number): bigint | undefined {
  if (v === undefined) return undefined;
  let out: bigint;
  try {
    out = parseUnits(v, decimals);
  } catch {
    throw badRequest("invalid_value", `${name} has more than ${decimals} decimals`);
  }
  // The chain takes a uint256; more is a caller's mistake, not the node's 500.
  if (out >= UINT256_LIMIT) throw badRequest("invalid_value", `${name} is more than a uint256 holds`);
  return out;
}

const address = z
  .string()
  .refine(isAddress, { error: "must be a 0x-prefixed 20-byte hex address", params: { code: "invalid_address" } });

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
          data: z.object({
            address: z.string(),
            usdc: z.string(),
            eth: z.string(),
            usdc_tx: z.string().nullable(),
            eth_tx: z.string().nullable(),
          }),
        },
        400: {
          description: "A field is missing or invalid",
          codes: ["invalid_value", "invalid_address", "invalid_json"],
        },
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      const b = c.input.body;
      const usdc = units("usdc", b.usdc, 6);
      const eth = units("eth", b.eth, 18);
      const asked =
        usdc === undefined && eth === undefined ? { usdc: 1000n * 10n ** 6n, eth: 10n ** 18n } : { usdc, eth };
      const to = getAddress(b.address);
      const tx = await host.gateway.faucet(to, asked);
      return ok({
        address: to,
        usdc: String(asked.usdc ?? 0n),
        eth: String(asked.eth ?? 0n),
        usdc_tx: tx.usdcTx ?? null,
        eth_tx: tx.ethTx ?? null,
      });
    },
  }),
  defineControl({
    method: "GET",
    path: "/chain/balances",
    describe: "ETH and USDC balances (whole units) of the roles, the funded fixture accounts and the contracts",
    schema: {
      responses: {
        200: {
          description: "Balances, read from the chain now",
          data: z.object({
            accounts: z.array(
              z.object({
                label: z.string(),
                kind: z.enum(["role", "account", "contract"]),
                address: z.string(),
                eth: z.string(),
                usdc: z.string(),
              }),
            ),
          }),
        },
        503: { description: "Started with --no-chain", codes: ["chain_unavailable"] },
      },
    },
    handle: async (c) => {
      const { gateway: chain } = requireChain(c.services);
      const who: { label: string; kind: "role" | "account" | "contract"; address: `0x${string}` }[] = [
        ...CHAIN_ROLES.map((r) => ({ label: r, kind: "role" as const, address: chain[r].address })),
        ...chain.endUsers.map((a) => ({ label: a.label, kind: "account" as const, address: a.address })),
        ...Object.entries(chain.addresses).map(([label, address]) => ({ label, kind: "contract" as const, address })),
      ];
      const accounts = await Promise.all(
        who.map(async (w) => {
          const [eth, usdc] = await Promise.all([
            chain.publicClient.getBalance({ address: w.address }),
            chain.publicClient.readContract({
              address: chain.addresses.stablecoin,
              abi: usdStablecoinAbi,
              functionName: "balanceOf",
              args: [w.address],
            }),
          ]);
          return { ...w, eth: formatUnits(eth, 18), usdc: formatUnits(usdc, 6) };
        }),
      );
      return ok({ accounts });
    },
  }),
  defineControl({
    method: "GET",
    path: "/chain/blocks",
    describe: "The latest blocks, newest first (?limit=, default 10): number, hash, time, transaction hashes, gas used",
    schema: {
      query: z.object({ limit: listLimit(10, 100) }),
      responses: {
        200: {
          description: "Blocks, newest first",
          data: z.object({
            blocks: z.array(
              z.object({
                number: z.string(),
                hash: z.string(),
                timestamp: z.iso.datetime(),
                transactions: z.array(z.string()),
                gas_used: z.string(),
              }),
            ),
          }),
        },
        400: { description: "limit is not an integer from 1 to 100", codes: ["invalid_value"] },
        503: { description: "Started with --no-chain", codes: ["chain_unavailable"] },
      },
    },
    handle: async (c) => {
      const { gateway: chain } = requireChain(c.services);
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      const numbers: bigint[] = [];
      for (let n = head; n >= 0n && numbers.length < c.input.query.limit; n--) numbers.push(n);
      const blocks = await Promise.all(numbers.map((blockNumber) => chain.publicClient.getBlock({ blockNumber })));
      return ok({
        blocks: blocks.map((b) => ({
          number: String(b.number),
          hash: b.hash,
          timestamp: isoOf(Number(b.timestamp) * 1000),
          transactions: b.transactions as string[],
          gas_used: String(b.gasUsed),
        })),
      });
    },
  }),
  defineControl({
    method: "GET",
    path: "/vrf",
    describe: "VRF mode and pending request ids",
    schema: {
      responses: {
        200: {
          description: "VRF mode and pending requests",
          data: z.object({ mode: z.enum(["auto", "manual"]), delay_ms: z.number(), pending: z.array(z.string()) }),
        },
        503: { description: "Started with --no-chain", codes: ["chain_unavailable"] },
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      return ok({
        mode: host.vrfMode,
        delay_ms: host.vrfDelayMs,
        pending: (await host.gateway.pendingVrfRequests()).map(String),
      });
    },
  }),
  defineControl({
    method: "POST",
    path: "/vrf",
    describe: "Set the VRF mode {mode: auto|manual}",
    schema: {
      body: z.object({ mode: oneOf(["auto", "manual"]) }),
      responses: {
        200: { description: "The mode", data: z.object({ mode: z.enum(["auto", "manual"]) }) },
        400: badInput,
      },
    },
    handle: async (c) => {
      const host = requireChain(c.services);
      await host.setVrfMode(c.input.body.mode);
      return ok({ mode: host.vrfMode });
    },
  }),
  defineControl({
    method: "POST",
    path: "/vrf/fulfill",
    describe:
      "Fulfil a VRF request {request_id?, words?} (default: the oldest pending, words from the seed or a steered reveal)",
    schema: {
      body: z.object({ request_id: opt(decimalString()), words: opt(z.array(decimalString())) }),
      responses: {
        200: {
          description: "Fulfilled",
          data: z.object({ request_id: z.string(), success: z.boolean(), tx_hash: z.string() }),
        },
        400: badInput,
        404: missing("pending VRF request"),
        409: { description: "No VRF request is pending", codes: ["nothing_pending"] },
      },
    },
    handle: (c) => {
      const host = requireChain(c.services);
      const raw = c.input.body.request_id;
      const words = c.input.body.words?.map((w) => BigInt(w));
      /** The request to fulfil (the oldest pending by default), or the 404 / 409 saying it is not pending. */
      const pick = async (): Promise<bigint> => {
        const pending = await host.gateway.pendingVrfRequests();
        if (raw === undefined) {
          if (pending.length === 0) throw new ApiError(409, "nothing_pending", "No VRF request is pending");
          return pending[0]!;
        }
        if (!pending.includes(BigInt(raw)))
          throw new ApiError(
            404,
            "not_found",
            `VRF request ${raw} is not pending (pending: ${pending.join(", ") || "none"})`,
          );
        return BigInt(raw);
      };
      // Check pending → fulfil is exclusive: a parallel call sees the request fulfilled (404 / the next one), not a revert.
      return withVrfTurn(c.services, async () => {
        const id = await pick();
        let res;
        try {
          res = await host.gateway.fulfillVrf(id, words ?? (await host.wordsFor(id)));
        } catch (err) {
          // Fulfilled meanwhile by auto mode's timer (it does not take this lock): answered like a later call.
          if ((await host.gateway.pendingVrfRequests()).includes(id)) throw err;
          if (raw !== undefined)
            throw new ApiError(404, "not_found", `VRF request ${raw} is not pending (fulfilled meanwhile)`);
          throw new ApiError(
            409,
            "nothing_pending",
            `VRF request ${id} was fulfilled meanwhile; retry for the next one`,
          );
        }
        return ok({ request_id: String(res.requestId), success: res.success, tx_hash: res.txHash });
      });
    },
  }),
];
