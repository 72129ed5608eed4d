import { encodeFunctionData, erc20Abi } from "viem";
import type { HttpResult } from "../../harness/http.ts";
import { startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { ensure, expectError, expectSuccess, usdcMicros, usdcText } from "../assert.ts";
import { NotApplicable, type CheckContext } from "../types.ts";
import { waitFor } from "../wait.ts";
import { reachable, type AnyLifecycle } from "../../contract/lifecycle.ts";
import { MYSTERY_PURCHASE } from "../../contract/lifecycles/purchases.ts";
import { runUnique } from "../isolate.ts";
import { cheapestTier, PACK_USDC } from "./commerce.ts";
import { webhookHeader } from "../../contract/webhook-signature.ts";

// Custodial purchases as a partner runs them on the sandbox, with no operator to credit a balance: the test
// wallet sends USDC to a new end user's dedicated deposit address (POST /wallet/deposit-address) and the suite
// polls the balance until the deposit is credited. Each run makes its own end user (a used target keeps every
// earlier run's users) and funds exactly the cheapest tier's price, so the books end at zero.

const M = "/api/v1/mystery";
const W = "/api/v1/wallet";

type Balance = { balance: string; reserved: string; balance_usdc: string };
type Purchase = { id: number; status: string; custody: string; price: string; items?: unknown[] };

export const balanceOf = async (ctx: CheckContext, key: string, user: string): Promise<Balance> =>
  (
    expectSuccess(
      await ctx.http.get(`${W}/balance`, { key, query: { external_user_id: user } }),
      `GET /wallet/balance of ${user}`,
    ).data as { wallet: Balance }
  ).wallet;

/** The USDC the target's purchases are paid in: a prepare names it (nothing is sent). */
async function paymentToken(ctx: CheckContext, key: string, wallet: string, tierId: number): Promise<`0x${string}`> {
  const prep = expectSuccess(
    await ctx.http.post(`${M}/purchase/prepare`, { key, body: { wallet_address: wallet, tier_id: tierId } }),
    "POST /mystery/purchase/prepare",
  ).data as { payment_token: `0x${string}` };
  return prep.payment_token;
}

/** A new end user of `key` credited with the cheapest tier's price by a real deposit; the user and the tier. */
export async function fundByDeposit(
  ctx: CheckContext,
  key: string,
): Promise<{ user: string; tierId: number; micros: bigint }> {
  ensure(ctx.wallet, "no test wallet");
  const w = ctx.wallet;
  const tier = await cheapestTier({ ...ctx, partnerKey: key });
  const micros = usdcMicros(tier.price_usdc);
  const user = runUnique("user");
  const addr = expectSuccess(
    await ctx.http.post(`${W}/deposit-address`, { key, body: { external_user_id: user } }),
    "POST /wallet/deposit-address",
  ).data as { address: `0x${string}`; dedicated: boolean };
  if (!addr.dedicated)
    throw new NotApplicable(
      "the target's deposit address is shared (dedicated: false): a transfer to it is credited to no end user by itself",
    );
  const token = await paymentToken(ctx, key, w.address, tier.tier_id);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [addr.address, micros] });
  await w.send([{ to: token, data, kind: "USDC transfer to the deposit address" }]);
  const credited = await waitFor(ctx, `the deposit of ${tier.price_usdc} USDC`, async () => {
    const b = await balanceOf(ctx, key, user);
    return BigInt(b.balance) > 0n ? b : undefined;
  });
  ensure(credited, `USDC sent to ${user}'s deposit address ${addr.address} was never credited to the balance`);
  ensure(
    BigInt(credited.balance) === micros,
    `the deposit credits ${tier.price_usdc} USDC; the balance reads ${credited.balance_usdc}`,
  );
  ctx.note(`funded end user ${user} with ${usdcText(micros)} USDC by a deposit from the test wallet`);
  return { user, tierId: tier.tier_id, micros };
}

const buy = (ctx: CheckContext, key: string, body: Record<string, unknown>, idem: string) =>
  ctx.http.post(`${M}/purchase`, { key, body, headers: { "Idempotency-Key": idem } });

const purchaseOf = async (ctx: CheckContext, key: string, id: number): Promise<Purchase> =>
  expectSuccess(await ctx.http.get(`${M}/purchase/${id}`, { key }), `GET /mystery/purchase/${id}`).data as Purchase;

/** Polls the purchase to FULFILLED (the relayer, then VRF); the statuses seen on the way. */
async function untilFulfilled(ctx: CheckContext, key: string, id: number): Promise<string[]> {
  const seen: string[] = [];
  const done = await waitFor(ctx, `purchase ${id}'s reveal`, async () => {
    const p = await purchaseOf(ctx, key, id);
    if (seen.at(-1) !== p.status) seen.push(p.status);
    return p.status === "FULFILLED" ? p : undefined;
  });
  ensure(done, `purchase ${id} never read FULFILLED (seen: ${seen.join(" → ")})`);
  return seen;
}

/** A custodial purchase's 202: RESERVED and CUSTODIAL, its on-chain fields null until the relayer sends it. */
export function reservedAnswer(r: HttpResult): Record<string, unknown> {
  const p = expectSuccess(r, "custodial purchase", 202).data as Record<string, unknown>;
  ensure(
    p.status === "RESERVED" && p.custody === "CUSTODIAL",
    `202 must be RESERVED / CUSTODIAL, got ${String(p.status)} / ${String(p.custody)}`,
  );
  ensure(
    p.onchain_request_id === null && p.transaction_hash === null && p.submitted_at === null,
    `on-chain fields must be null on the 202: ${r.text.slice(0, 240)}`,
  );
  return p;
}

/** The sandbox run of purchases.custodial-reserved. */
export async function custodialReservedBySandbox(ctx: CheckContext): Promise<void> {
  const key = ctx.partnerKey;
  const { user, tierId, micros } = await fundByDeposit(ctx, key);
  const r = await buy(ctx, key, { tier_id: tierId, external_user_id: user }, runUnique("reserved"));
  const p = reservedAnswer(r);
  const w = await balanceOf(ctx, key, user);
  // The relayer takes it seconds later: the hold shows while the purchase still reads RESERVED.
  if ((await purchaseOf(ctx, key, p.id as number)).status === "RESERVED")
    ensure(
      BigInt(w.balance) === micros && BigInt(w.reserved) === BigInt(p.price as string),
      `the price is held, not debited: ${JSON.stringify(w)}`,
    );
  else ctx.note("the relayer took the purchase before the balance was read: the hold was not observable");
  await untilFulfilled(ctx, key, p.id as number);
}

/** The sandbox run of lifecycle.mystery-custodial-retry: the same Idempotency-Key twice is one purchase, charged once. */
export async function custodialRetryBySandbox(ctx: CheckContext): Promise<void> {
  const key = ctx.partnerKey;
  const { user, tierId } = await fundByDeposit(ctx, key);
  const body = { tier_id: tierId, external_user_id: user };
  const idem = runUnique("order");
  const first = expectSuccess(await buy(ctx, key, body, idem), "custodial purchase", 202).data as Purchase;
  const retry = expectSuccess(await buy(ctx, key, body, idem), "retry", 202).data as Purchase;
  ensure(retry.id === first.id, `the retry must return purchase ${first.id}, got ${retry.id}`);
  expectError(
    await buy(ctx, key, { ...body, tier_id: tierId + 1 }, idem),
    409,
    "idempotency_mismatch",
    "the same Idempotency-Key with another tier",
  );
  await untilFulfilled(ctx, key, first.id);
  const w = await balanceOf(ctx, key, user);
  ensure(w.balance === "0" && w.reserved === "0", `charged once (the deposit paid one pack): ${JSON.stringify(w)}`);
  ctx.note(`purchase ${first.id} retried with its key: one purchase, charged once`);
}

const STEPS = ["purchase.reserved", "purchase.submitted", "purchase.fulfilled"] as const;

/** The sandbox run of lifecycle.mystery-custodial-lifecycle: statuses polled, one event per step, the hold settled once. */
export async function custodialLifecycleBySandbox(ctx: CheckContext): Promise<void> {
  const key = ctx.partnerKey;
  const rx = ctx.receiver ? await startCheckReceiver(200, ctx.receiver) : null;
  const reg = rx
    ? (expectSuccess(
        await ctx.http.post("/api/v1/webhooks", { key, body: { url: rx.url, event_types: [...STEPS] } }),
        "register a webhook",
        201,
      ).data as { id: number })
    : null;
  try {
    const { user, tierId, micros } = await fundByDeposit(ctx, key);
    const p = expectSuccess(
      await buy(ctx, key, { tier_id: tierId, external_user_id: user }, runUnique("lifecycle")),
      "custodial purchase",
      202,
    ).data as Purchase;
    ensure(p.status === "RESERVED", `the 202 must read RESERVED, got ${p.status}`);
    const seen = await untilFulfilled(ctx, key, p.id);
    // Polls see some of the states: each must be one the table reaches from the one before (never a move back).
    ensure(
      seen.every((s, i) => i === 0 || reachable(MYSTERY_PURCHASE as AnyLifecycle, seen[i - 1]!, s)),
      `statuses must only move forward along the purchase lifecycle (RESERVED → SUBMITTING → SUBMITTED → FULFILLED), seen ${seen.join(" → ")}`,
    );
    const entries = (
      expectSuccess(await ctx.http.get(`${W}/ledger`, { key, query: { external_user_id: user } }), "GET /wallet/ledger")
        .data as { entries: Array<{ entry_type: string; source_id: string | null }> }
    ).entries.filter((e) => e.source_id === String(p.id));
    ensure(
      entries.map((e) => e.entry_type).join(",") === "HOLD_SETTLE,HOLD",
      `purchase ${p.id}'s ledger must be one HOLD then one HOLD_SETTLE (newest first), got ${entries.map((e) => e.entry_type).join(", ")}`,
    );
    const w = await balanceOf(ctx, key, user);
    ensure(
      w.balance === "0" && w.reserved === "0",
      `the hold of ${usdcText(micros)} settled once: ${JSON.stringify(w)}`,
    );
    if (rx) {
      const mine = (type: string) =>
        rx.deliveries.filter((d) => {
          if (webhookHeader(d.headers, "event") !== type) return false;
          const body = JSON.parse(d.body) as { data?: { purchase_id?: unknown } };
          return body.data?.purchase_id === p.id;
        });
      const all = await waitFor(ctx, "one delivery per step", async () =>
        STEPS.every((t) => mine(t).length > 0) ? true : undefined,
      );
      ensure(all, `deliveries per step for purchase ${p.id}: ${STEPS.map((t) => `${t} ${mine(t).length}`).join(", ")}`);
      for (const t of STEPS)
        ensure(mine(t).length === 1, `${t} must be delivered once for purchase ${p.id}, got ${mine(t).length}`);
      ctx.note(`purchase ${p.id}: ${seen.join(" → ")}; one delivery per step`);
    } else ctx.note(`purchase ${p.id}: ${seen.join(" → ")} (no receiver: the events are not read)`);
  } finally {
    await rx?.close();
    if (reg) await ctx.http.call("DELETE", `/api/v1/webhooks/${reg.id}`, { key });
  }
}

/** What a custodial check spends from the wallet: the pack its deposit pays for. */
export const CUSTODIAL_USDC = PACK_USDC;
