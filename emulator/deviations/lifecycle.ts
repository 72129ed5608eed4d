import { balanceOf, monthOf } from "../pipeline/metering.ts";
import { creditsSlice } from "../areas/credits/state.ts";
import { mystery } from "../areas/mystery/state.ts";
import { activeWallet } from "../areas/mystery/wallet-routes.ts";
import { warehouse } from "../areas/warehouse/state.ts";
import type { Deviation, Exchange } from "./deviation.ts";

// Deviations for the lifecycle checks (conformance/checks/lifecycle.ts), one per
// scenario. Each breaks the rule the lifecycle shows at its end: the step a
// partner's integration depends on, observed through the public API the
// scenario reads (deviations never touch /_emulator answers). Where that rule
// lives in later state rather than in one response (credits expiring, a
// forwarding target), the deviation changes the state the way a broken server would.

type Data = Record<string, unknown>;

const dataOf = (x: Exchange) => (x.body?.data && typeof x.body.data === "object" ? (x.body.data as Data) : null);
const is = (x: Exchange, method: string, path: RegExp) => x.req.method === method && path.test(x.url.pathname);
const keyOf = (x: Exchange) => x.services.store.state.keys[x.req.headers.get("x-api-key") ?? ""];

/** Decimal USDC string (6 decimals) scaled by num/den, rounded down. */
function scaleUsdc(v: unknown, num: bigint, den: bigint): string | null {
  if (typeof v !== "string" || !/^\d+(\.\d{1,6})?$/.test(v)) return null;
  const [i, f = ""] = v.split(".");
  const micros = ((BigInt(i!) * 1_000_000n + BigInt(f.padEnd(6, "0"))) * num) / den;
  return `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, "0")}`;
}

export const lifecycleDeviations: readonly Deviation[] = [
  { name: "lifecycle_purchased_credits_expire", breaks: "purchased credits never expire (only the free part resets monthly)", apply: (x) => {
      // Once a month boundary has passed since a top-up, the purchased pool is dropped with the free reset.
      const key = keyOf(x);
      const acct = key ? x.services.store.state.credits[key.key] : undefined;
      if (!key || !acct || !is(x, "GET", /^\/api\/v1\/account\/usage$/) || x.status !== 200) return;
      const month = monthOf(x.services.clock.now());
      const old = Object.values(creditsSlice(x.services.store).topups).some((t) => t.key === key.key && t.settled_at.slice(0, 7) < month);
      const d = dataOf(x);
      if (!old || !d || acct.purchased === 0) return;
      acct.purchased = 0;
      d.purchased_credits = 0;
      d.balance = balanceOf(acct);
      x.headers.set("X-Credits-Remaining", String(balanceOf(acct)));
    } },
  { name: "lifecycle_delivery_never_delivered", breaks: "a retried webhook delivery ends DELIVERED in the delivery log", apply: (x) => {
      const rows = dataOf(x)?.deliveries;
      if (!is(x, "GET", /^\/api\/v1\/webhooks\/deliveries$/) || !Array.isArray(rows)) return;
      for (const r of rows as Data[]) if (r.status === "DELIVERED") r.status = "PENDING";
    } },
  { name: "lifecycle_purchase_never_fulfilled", breaks: "a revealed purchase reads FULFILLED with its items", apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", /^\/api\/v1\/mystery\/purchase\/\d+$/) || d?.status !== "FULFILLED") return;
      d.status = "SUBMITTED";
      delete d.items;
    } },
  { name: "lifecycle_custodial_retry_new_purchase", breaks: "a custodial retry with the same Idempotency-Key returns the original purchase", apply: (x) => {
      // Every call looks like a new purchase: the id the caller sees changes on each answer.
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/purchase$/) || x.status !== 202 || typeof d?.id !== "number") return;
      d.id = d.id + x.services.store.nextId("lifecycle-deviation", 1000);
    } },
  { name: "lifecycle_redemption_never_completed", breaks: "a dispatched redemption is COMPLETED (burned at dispatch)", apply: (x) => {
      const rows = dataOf(x)?.redemptions;
      if (!is(x, "GET", /^\/api\/v1\/mystery\/redemption\/[^/]+$/) || !Array.isArray(rows)) return;
      for (const r of rows as Data[]) if (r.status === "COMPLETED") r.status = "IN_FULFILLMENT";
    } },
  { name: "lifecycle_pool_wallet_not_used", breaks: "setting the pool wallet forwards held buyback transfers to it", apply: (x) => {
      // The PUT answers 200, but the wallet is stored inactive: forwarding never finds it.
      const key = keyOf(x);
      if (!key || !is(x, "PUT", /^\/api\/v1\/mystery\/pool-wallet$/) || x.status !== 200) return;
      for (const w of mystery(x.services).pool_wallets[key.account_id] ?? []) w.is_active = false;
    } },
  { name: "lifecycle_buyback_default_pool_wallet", breaks: "without a pool wallet a buyback transfer is held, then fails after 10 attempts", apply: (x) => {
      // A server that silently forwards to a wallet of its own when the partner set none.
      const key = keyOf(x);
      const chain = x.services.chain?.chain;
      if (!key || !chain || !is(x, "POST", /^\/api\/v1\/mystery\/buyback\/\d+$/) || x.status !== 201) return;
      if (activeWallet({ services: x.services }, "pool_wallets", key.account_id)) return;
      (mystery(x.services).pool_wallets[key.account_id] ??= []).push({ chain: "base", address: chain.treasury.address, is_active: true, created_at: x.services.clock.nowIso() });
    } },
  { name: "lifecycle_sellback_pays_less", breaks: "the sell-back record pays what the quote said (from CardSellExecuted)", apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "POST", /^\/api\/v1\/mystery\/sellback\/submit$/) || x.status !== 200 || !d) return;
      const less = scaleUsdc(d.total_usdc, 975n, 1000n);
      if (less) d.total_usdc = less;
    } },
  { name: "lifecycle_payout_never_paid", breaks: "a paid payout statement reads PAID in GET /mystery/payouts", apply: (x) => {
      const rows = dataOf(x)?.payouts;
      if (!is(x, "GET", /^\/api\/v1\/mystery\/payouts$/) || !Array.isArray(rows)) return;
      for (const r of rows as Data[]) if (r.status === "PAID") r.status = "PENDING";
    } },
  { name: "lifecycle_sweep_misses_changes", breaks: "an incremental sweep from resume_cursor returns every card changed since", apply: (x) => {
      const d = dataOf(x);
      const since = x.url.searchParams.get("since");
      if (is(x, "GET", /^\/api\/v1\/cards$/) && since !== null && since !== "0" && d && Array.isArray(d.cards)) d.cards = [];
    } },
  { name: "lifecycle_order_never_delivered", breaks: "a delivered order reads DELIVERED", apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/orders\/\d+$/) && d?.status === "DELIVERED") d.status = "SHIPPED";
    } },
  { name: "lifecycle_failed_label_holds_cards", breaks: "a failed label purchase applies nothing: the cards are AVAILABLE again", apply: (x) => {
      const key = keyOf(x);
      const d = dataOf(x);
      if (!key || !d || !Array.isArray(d.cards) || !is(x, "GET", /^\/api\/v1\/inventory$/)) return;
      const orders = Object.values(warehouse(x.services).tenants[key.account_id]?.orders ?? {});
      const held = new Set(orders.filter((o) => o.status === "PENDING_PAYMENT" && o.last_error).flatMap((o) => o.unique_ids));
      d.cards = (d.cards as Data[]).filter((c) => !held.has(String(c.unique_id)));
    } },
  { name: "lifecycle_return_not_recorded", breaks: "a package the carrier returns makes the order RETURNED", apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/orders\/\d+$/) && d?.status === "RETURNED") d.status = "SHIPPED";
    } },
  { name: "lifecycle_withdrawn_cards_stay", breaks: "a completed withdrawal takes the cards out of the vault (EXTERNAL)", apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/cards\/[^/]+$/) && d?.location === "EXTERNAL") d.location = "OFFCHAIN";
    } },
];
