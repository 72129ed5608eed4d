import { encodeFunctionData } from "viem";
import { mysteryPoolAbi, usdStablecoinAbi } from "../../../chain/index.ts";
import { optString, reqString } from "../../control/body.ts";
import type { ControlContext, ControlSpec } from "../../control/route.ts";
import { badRequest, notFound } from "../../pipeline/errors.ts";
import { withKeyLock } from "../../pipeline/key-lock.ts";
import { ok } from "../../pipeline/route.ts";
import { own } from "../../state/own.ts";
import { chainOf, sendAs, usdcBalance } from "./chain-io.ts";
import { endUser, walletView } from "./wallet/end-users.ts";
import { decideKyc, dispatch, formatRedemption, notePayment, startFulfillment } from "./redemption/redemption.ts";
import { faultControl } from "./control-faults.ts";
import { mystery } from "./state.ts";
import { intId } from "../../pipeline/identifiers.ts";
import { checksummed, parseUsdc, tokenIdOf, usdc } from "./util.ts";
import { armWorker, runWorker, serial } from "./worker.ts";
import { creditDeposit } from "./wallet/ledger.ts";

// Operator actions under /_emulator/mystery: fund custodial balances, decide
// KYC, move the warehouse side of redemptions, set oracle values and the
// buyback float, run the worker now, read the area's published events.

function accountOf(c: ControlContext): string {
  const key = optString(c.body, "key");
  if (key) {
    const rec = own(c.services.store.state.keys, key);
    if (!rec) throw notFound("No such key");
    return rec.account_id;
  }
  return reqString(c.body, "account_id");
}

function amount(v: unknown, name: string): bigint {
  const m = parseUsdc(v);
  if (m === null) throw badRequest("invalid_value", `${name} must be a non-negative decimal USDC amount (e.g. "100" or "12.5")`);
  return m;
}

function redemptionId(c: ControlContext): number {
  const id = intId(c.params.id);
  if (id === null) throw notFound(`No redemption ${c.params.id}`);
  return id;
}

/** Moves `who`'s USDC to exactly `target` (mint up, send the excess to the treasury). */
function setBalance(c: ControlContext, who: "pool" | "poolSigner", target: bigint): Promise<void> {
  // Read balance → mint/withdraw is exclusive per account: two parallel calls would both mint the gap.
  return withKeyLock(c.services.store, `mystery:liquidity:${who}`, () => moveBalance(c, who, target));
}

async function moveBalance(c: ControlContext, who: "pool" | "poolSigner", target: bigint): Promise<void> {
  const chain = chainOf(c.services);
  const addr = who === "pool" ? chain.addresses.mysteryPool : chain.poolSigner.address;
  const have = await usdcBalance(chain, addr);
  if (have < target) await chain.faucet(addr, { usdc: target - have });
  else if (have > target) {
    const excess = have - target;
    const data =
      who === "pool"
        ? encodeFunctionData({ abi: mysteryPoolAbi, functionName: "withdraw", args: [chain.treasury.address, excess] })
        : encodeFunctionData({ abi: usdStablecoinAbi, functionName: "transfer", args: [chain.treasury.address, excess] });
    await sendAs(chain, who === "pool" ? chain.operator : chain.poolSigner, who === "pool" ? chain.addresses.mysteryPool : chain.addresses.stablecoin, data);
  }
}

export const mysteryControl: ControlSpec[] = [
  {
    method: "POST",
    path: "/mystery/custodial/fund",
    describe: "Credit an end user's custodial USDC balance {account_id | key, external_user_id | wallet_address, usdc}",
    handle: (c) => {
      const acct = accountOf(c);
      const external_user_id = optString(c.body, "external_user_id") ?? null;
      const rawWallet = optString(c.body, "wallet_address");
      const wallet_address = rawWallet ? checksummed(rawWallet) : null;
      if (rawWallet && !wallet_address) throw badRequest("invalid_value", "wallet_address is not an EVM address");
      if (!external_user_id && !wallet_address) throw badRequest("invalid_value", "external_user_id or wallet_address is required");
      const add = amount(c.body.usdc, "usdc");
      const user = endUser(c.services, acct, { external_user_id, wallet_address });
      creditDeposit(c.services, acct, user, add);
      return ok({ account_id: acct, credited_usdc: usdc(add), ...walletView(user) });
    },
  },
  {
    method: "POST",
    path: "/mystery/redemptions/:id/kyc",
    describe: "Decide a redemption's KYC {decision: approve|decline} (approve → PREPARED; prepare with the same key returns the calldata)",
    handle: (c) => {
      const decision = optString(c.body, "decision", ["approve", "decline"]) ?? "approve";
      return ok(formatRedemption(c.services, decideKyc(c.services, redemptionId(c), decision === "approve"), true));
    },
  },
  {
    method: "POST",
    path: "/mystery/redemptions/:id/start-fulfillment",
    describe: "Warehouse begins fulfilment: BURN_SUBMITTED → IN_FULFILLMENT (redemption.updated); 409 shipping_unpaid until the shipping payment is on chain",
    handle: async (c) => {
      const id = redemptionId(c);
      let out: Record<string, unknown> = {};
      await serial(c.services, async () => {
        if (c.services.chain) await notePayment(c.services, id);
        out = formatRedemption(c.services, startFulfillment(c.services, id));
      });
      armWorker(c.services);
      return ok(out);
    },
  },
  {
    method: "POST",
    path: "/mystery/redemptions/:id/dispatch",
    describe: "Warehouse dispatches: IN_FULFILLMENT → COMPLETED; the burn is finalised on chain (redemption.updated)",
    handle: async (c) => {
      const id = redemptionId(c);
      let out: Record<string, unknown> = {};
      await serial(c.services, async () => {
        out = formatRedemption(c.services, await dispatch(c.services, id));
      });
      armWorker(c.services);
      return ok(out);
    },
  },
  {
    method: "POST",
    path: "/mystery/warehouse",
    describe: "Warehouse progression mode {mode: auto|manual} (auto: IN_FULFILLMENT 1 h after the burn, COMPLETED 24 h later)",
    handle: (c) => {
      const mode = reqString(c.body, "mode", ["auto", "manual"]) as "auto" | "manual";
      mystery(c.services).warehouse_mode = mode;
      armWorker(c.services);
      return ok({ mode });
    },
  },
  {
    method: "POST",
    path: "/mystery/oracle",
    describe: "Set a token's on-chain oracle value {token_id, usdc} (\"0\" makes it value_unknown)",
    handle: async (c) => {
      const tokenId = tokenIdOf(c.body.token_id);
      if (tokenId === null) throw badRequest("invalid_value", "token_id must be a decimal token id");
      const value = amount(c.body.usdc, "usdc");
      const chain = chainOf(c.services);
      const receipt = await sendAs(chain, chain.operator, chain.addresses.mysteryPool, encodeFunctionData({ abi: mysteryPoolAbi, functionName: "setOracleValue", args: [BigInt(tokenId), value] }));
      return ok({ token_id: tokenId, value_usdc: usdc(value), tx_hash: receipt.transactionHash });
    },
  },
  {
    method: "POST",
    path: "/mystery/liquidity",
    describe: "Set the buyback float {buyback_usdc?} (pool signer balance) and/or the sell-back pool {pool_usdc?}",
    handle: async (c) => {
      if (c.body.buyback_usdc !== undefined) await setBalance(c, "poolSigner", amount(c.body.buyback_usdc, "buyback_usdc"));
      if (c.body.pool_usdc !== undefined) await setBalance(c, "pool", amount(c.body.pool_usdc, "pool_usdc"));
      const chain = chainOf(c.services);
      return ok({
        buyback_usdc: usdc(await usdcBalance(chain, chain.poolSigner.address)),
        pool_usdc: usdc(await usdcBalance(chain, chain.addresses.mysteryPool)),
      });
    },
  },
  {
    method: "POST",
    path: "/mystery/worker/run",
    describe: "Run the mystery worker now: read reveals and accepted offers from the chain, take due steps",
    handle: async (c) => {
      await runWorker(c.services);
      return ok({ ran_at: c.services.clock.nowIso() });
    },
  },
  {
    method: "GET",
    path: "/mystery/events",
    describe: "Events the mystery area published (?account_id=&type=), oldest first",
    handle: (c) => {
      const acct = c.query.get("account_id");
      const type = c.query.get("type");
      const events = mystery(c.services).events.filter((e) => (!acct || e.account_id === acct) && (!type || e.type === type));
      return ok({ events });
    },
  },
  ...faultControl,
];
