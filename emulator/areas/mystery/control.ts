import { encodeFunctionData } from "../../../chain/viem-late.ts";
import { getAddress } from "../../../chain/evm.ts";
import { mysteryPoolAbi, usdStablecoinAbi } from "../../../chain/index.ts";
import { defineControl, type ControlContext, type ControlSpec } from "../../control/route.ts";
import { accountOf as accountOfTarget } from "../../control/account.ts";
import { badInput, missing, oneOf, opt, parsed, text } from "../../control/schemas.ts";
import { identifier, z } from "../../pipeline/schema.ts";
import { parseUsdc } from "../../../contract/money.ts";
import { Redemption, RedemptionPrepareResult } from "../../../contract/mystery/redemption.ts";
import { badRequest, notFound } from "../../pipeline/errors.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { ok } from "../../pipeline/route.ts";
import { chainOf, sendAs, usdcBalance } from "./chain-io.ts";
import { endUser, walletView } from "./wallet/end-users.ts";
import {
  decideKyc,
  dispatch,
  notePayment,
  operatorWire,
  redemptionWire,
  startFulfillment,
} from "./redemption/redemption.ts";
import type { RedemptionRow } from "./state.ts";
import { faultControl } from "./control-faults.ts";
import { mystery } from "./state.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { isEvmAddress, tokenIdText } from "../../../contract/index.ts";
import { usdc } from "../../../contract/money.ts";
import { armWorker, runWorker, serial } from "./worker.ts";
import { creditDeposit } from "./wallet/ledger.ts";
import { publishedEvents } from "../../events/log.ts";
import { MYSTERY_EVENT_TYPES } from "./payloads.ts";

// Operator actions under /_emulator/mystery: fund custodial balances, decide
// KYC, move the warehouse side of redemptions, set oracle values and the
// buyback float, run the worker now, read the area's published events.

/** `key` (its account) or `account_id`: the partner account an operator action is for. */
const accountOf = (c: ControlContext, given: { key?: string; account_id?: string }): string =>
  accountOfTarget(c.services, given);

const usdcAmount = (name: string) =>
  parsed(parseUsdc, `${name} must be a non-negative decimal USDC amount (e.g. "100" or "12.5")`, {
    type: "string",
    description: 'Whole USDC (e.g. "100" or "12.5")',
  });

const redemptionParams = z.object({ id: z.string() });
/** A redemption with its calls and shipping payment (the KYC decision's answer). */
const operatorRedemption = Redemption.extend(
  RedemptionPrepareResult.pick({ shipping_payer: true, shipping_payment: true, unsigned: true }).shape,
);

function redemptionId(raw: string): number {
  const id = intId(raw);
  if (id === null) throw notFound(`No redemption ${raw}`);
  return id;
}

/** A redemption step the warehouse takes, in the worker's queue; the worker is re-armed after it. */
async function warehouseStep(
  c: ControlContext,
  raw: string,
  step: (id: number) => RedemptionRow | Promise<RedemptionRow>,
) {
  const id = redemptionId(raw);
  let out: Redemption | null = null;
  await serial(c.services, async () => {
    out = redemptionWire(await step(id));
  });
  armWorker(c.services);
  return ok(out);
}

const warehouseStepSchema = (what: string) => ({
  params: redemptionParams,
  responses: {
    200: { description: `The redemption, ${what}`, data: Redemption },
    404: missing("redemption"),
    409: {
      description: "The redemption is not at this step (or its shipping payment has not landed)",
      codes: ["invalid_status", "shipping_unpaid"],
    },
  },
});

/** Moves `who`'s USDC to exactly `target` (mint up, send the excess to the treasury). */
function setBalance(c: ControlContext, who: "mysteryPool" | "poolSigner", target: bigint): Promise<void> {
  // Read balance → mint/withdraw is exclusive per account: two parallel calls would both mint the gap.
  return withKeyLock(c.services, `mystery:liquidity:${who}`, () => moveBalance(c, who, target));
}

async function moveBalance(c: ControlContext, who: "mysteryPool" | "poolSigner", target: bigint): Promise<void> {
  const chain = chainOf(c.services);
  const addr = who === "mysteryPool" ? chain.addresses.mysteryPool : chain.poolSigner.address;
  const have = await usdcBalance(chain, addr);
  if (have < target) await chain.faucet(addr, { usdc: target - have });
  else if (have > target) {
    const excess = have - target;
    const data =
      who === "mysteryPool"
        ? encodeFunctionData({ abi: mysteryPoolAbi, functionName: "withdraw", args: [chain.treasury.address, excess] })
        : encodeFunctionData({
            abi: usdStablecoinAbi,
            functionName: "transfer",
            args: [chain.treasury.address, excess],
          });
    await sendAs(
      chain,
      who === "mysteryPool" ? chain.operator : chain.poolSigner,
      who === "mysteryPool" ? chain.addresses.mysteryPool : chain.addresses.stablecoin,
      data,
    );
  }
}

const walletAnswer = z.object({
  account_id: z.string(),
  credited_usdc: z.string(),
  end_user: z.object({}).loose(),
  wallet: z.object({}).loose(),
});

/** The contract's wallet rule (contract/input-fields.ts): the checksummed address, or null. */
function checksummed(v: unknown): `0x${string}` | null {
  return isEvmAddress(v) ? getAddress(v) : null;
}

export const mysteryControl: ControlSpec[] = [
  defineControl({
    method: "POST",
    path: "/mystery/custodial/fund",
    describe: "Credit an end user's custodial USDC balance {account_id | key, external_user_id | wallet_address, usdc}",
    schema: {
      body: z.object({
        key: opt(text()),
        account_id: opt(text()),
        // As the API takes identifiers: at most 255 characters (400 identifier_too_long), so the user can be reached there.
        external_user_id: opt(identifier(text())),
        wallet_address: opt(parsed(checksummed, "wallet_address is not an EVM address", { type: "string" })),
        usdc: usdcAmount("usdc"),
      }),
      responses: {
        200: { description: "The end user's wallet after the credit", data: walletAnswer },
        400: {
          description: "A field is missing or invalid",
          codes: ["invalid_value", "invalid_json", "identifier_too_long"],
        },
        404: missing("key"),
      },
    },
    handle: (c) => {
      const b = c.input.body;
      const acct = accountOf(c, b);
      const external_user_id = b.external_user_id ?? null;
      const wallet_address = b.wallet_address ?? null;
      if (!external_user_id && !wallet_address)
        throw badRequest("invalid_value", "external_user_id or wallet_address is required");
      const user = endUser(c.services, acct, { external_user_id, wallet_address });
      creditDeposit(c.services, acct, user, b.usdc);
      return ok({ account_id: acct, credited_usdc: usdc(b.usdc), ...walletView(user) });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/redemptions/:id/kyc",
    describe:
      "Decide the KYC of a redemption waiting for it {decision: approve|decline} (approve → its calls; prepare with the same key returns them; decline → FAILED)",
    schema: {
      params: redemptionParams,
      body: z.object({ decision: opt(oneOf(["approve", "decline"])) }),
      responses: {
        200: {
          description: "The redemption: approved, with its calls; declined, FAILED (kyc_declined)",
          data: operatorRedemption,
        },
        400: badInput,
        404: missing("redemption"),
        409: { description: "The redemption is not waiting for KYC", codes: ["invalid_status"] },
      },
    },
    handle: (c) => {
      const approve = (c.input.body.decision ?? "approve") === "approve";
      return ok(operatorWire(c.services, decideKyc(c.services, redemptionId(c.input.params.id), approve)));
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/redemptions/:id/start-fulfillment",
    describe:
      "Warehouse begins fulfilment: BURN_SUBMITTED → IN_FULFILLMENT (redemption.updated); 409 shipping_unpaid until the shipping payment is on chain",
    schema: warehouseStepSchema("IN_FULFILLMENT"),
    handle: (c) =>
      warehouseStep(c, c.input.params.id, async (id) => {
        // The shipping payment may have landed since the worker last looked.
        if (c.services.chainHost) await notePayment(c.services, id);
        return startFulfillment(c.services, id);
      }),
  }),
  defineControl({
    method: "POST",
    path: "/mystery/redemptions/:id/dispatch",
    describe: "Warehouse dispatches: IN_FULFILLMENT → COMPLETED; the burn is finalised on chain (redemption.updated)",
    schema: warehouseStepSchema("COMPLETED"),
    handle: (c) => warehouseStep(c, c.input.params.id, (id) => dispatch(c.services, id)),
  }),
  defineControl({
    method: "POST",
    path: "/mystery/warehouse",
    describe:
      "Warehouse progression mode {mode: auto|manual} (auto: IN_FULFILLMENT 1 h after the burn, COMPLETED 24 h later)",
    schema: {
      body: z.object({ mode: oneOf(["auto", "manual"]) }),
      responses: {
        200: { description: "The mode", data: z.object({ mode: z.enum(["auto", "manual"]) }) },
        400: badInput,
      },
    },
    handle: (c) => {
      const mode = c.input.body.mode;
      mystery(c.services).warehouse_mode = mode;
      armWorker(c.services);
      return ok({ mode });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/oracle",
    describe: 'Set a token\'s on-chain oracle value {token_id, usdc} ("0" makes it value_unknown)',
    schema: {
      body: z.object({
        token_id: parsed(tokenIdText, "token_id must be a decimal token id", { type: "string" }),
        usdc: usdcAmount("usdc"),
      }),
      responses: {
        200: {
          description: "The value set",
          data: z.object({ token_id: z.string(), value_usdc: z.string(), tx_hash: z.string() }),
        },
        400: badInput,
      },
    },
    handle: async (c) => {
      const { token_id: tokenId, usdc: value } = c.input.body;
      const chain = chainOf(c.services);
      const receipt = await sendAs(
        chain,
        chain.operator,
        chain.addresses.mysteryPool,
        encodeFunctionData({ abi: mysteryPoolAbi, functionName: "setOracleValue", args: [BigInt(tokenId), value] }),
      );
      return ok({ token_id: tokenId, value_usdc: usdc(value), tx_hash: receipt.transactionHash });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/liquidity",
    describe: "Set the buyback float {buyback_usdc?} (pool signer balance) and/or the sell-back pool {pool_usdc?}",
    schema: {
      body: z.object({
        buyback_usdc: usdcAmount("buyback_usdc").optional(),
        pool_usdc: usdcAmount("pool_usdc").optional(),
      }),
      responses: {
        200: { description: "Both balances now", data: z.object({ buyback_usdc: z.string(), pool_usdc: z.string() }) },
        400: badInput,
      },
    },
    handle: async (c) => {
      const { buyback_usdc, pool_usdc } = c.input.body;
      if (buyback_usdc !== undefined) await setBalance(c, "poolSigner", buyback_usdc);
      if (pool_usdc !== undefined) await setBalance(c, "mysteryPool", pool_usdc);
      const chain = chainOf(c.services);
      return ok({
        buyback_usdc: usdc(await usdcBalance(chain, chain.poolSigner.address)),
        pool_usdc: usdc(await usdcBalance(chain, chain.addresses.mysteryPool)),
      });
    },
  }),
  defineControl({
    method: "POST",
    path: "/mystery/worker/run",
    describe: "Run the mystery worker now: read reveals and accepted offers from the chain, take due steps",
    schema: {
      responses: { 200: { description: "When it ran (virtual time)", data: z.object({ ran_at: z.string() }) } },
    },
    handle: async (c) => {
      await runWorker(c.services);
      return ok({ ran_at: c.services.clock.nowIso() });
    },
  }),
  defineControl({
    method: "GET",
    path: "/mystery/events",
    describe: "Events the mystery area published (?account_id=&type=), oldest first",
    schema: {
      query: z.object({ account_id: opt(z.string()), type: opt(z.string()) }),
      responses: {
        200: {
          description: "Published events, oldest first",
          data: z.object({
            events: z.array(
              z.object({
                account_id: z.string(),
                type: z.string(),
                key: z.string(),
                data: z.record(z.string(), z.unknown()),
                at: z.string(),
              }),
            ),
          }),
        },
      },
    },
    handle: (c) => {
      const { account_id: acct, type } = c.input.query;
      const events = publishedEvents(c.services, MYSTERY_EVENT_TYPES, { account_id: acct, type });
      return ok({ events });
    },
  }),
  ...faultControl,
];
