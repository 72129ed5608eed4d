import { emulatorOnly, NotApplicable, runs, type Check, type CheckContext } from "../types.ts";
import { ensure, expectError, expectSuccess } from "../assert.ts";
import { inSnapshot } from "../isolate.ts";
import { buyAndReveal, buyInstant, PACK_USDC } from "./commerce.ts";

// Sell-back pre-flight and instant cards (issue 34): another wallet's or a late sell-back is refused; an instant
// pack's cards have no sell-back window, and the refusal of such a card names the token and the reason in
// `details`. Each check buys a pack with the test wallet on a TIER key; in emulator mode between a snapshot and
// its restore.

const M = "/api/v1/mystery";
const INSTANT_USDC = 10;
const OTHER_WALLET = "0x000000000000000000000000000000000000c0de";

const isolated =
  (run: (ctx: CheckContext) => Promise<void>) =>
  async (ctx: CheckContext): Promise<void> => {
    if (!ctx.control) return run(ctx);
    await inSnapshot(ctx.control, () => run(ctx), { manualClock: false });
  };

/** The cards of an instant pack bought with the TIER key, and the wallet that holds them. */
async function instantCards(ctx: CheckContext): Promise<{ key: string; wallet: string; tokens: string[] }> {
  ensure(ctx.revenueShareKey, "no TIER key");
  ensure(ctx.wallet, "no test wallet");
  const key = ctx.revenueShareKey;
  const terms = expectSuccess(await ctx.http.get(`${M}/terms`, { key }), "GET /mystery/terms").data as {
    billing_model?: string;
  };
  if (terms.billing_model !== "TIER")
    throw new NotApplicable(
      `sell-back is for TIER partners; --revenue-share-key's model is ${String(terms.billing_model)}`,
    );
  const { purchase } = await buyInstant({ ...ctx, partnerKey: key }, ctx.wallet);
  ensure(purchase.status === "FULFILLED", `instant purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
  const tokens = (purchase.cards ?? []).map((c) => c.token_id);
  ensure(tokens.length > 0, `instant purchase ${purchase.id} delivered no card`);
  return { key, wallet: ctx.wallet.address, tokens };
}

const withTierWallet = runs("sandbox", ["partnerKey", "wallet", "revenueShareKey"]);

export const instantCardChecks: Check[] = [
  {
    id: "instant.cards-no-sellback-window",
    guards:
      "docs/reference/live-service.md “Instant packs” (instant cards have no buyback or sell-back window; they can be redeemed)",
    profile: "mystery",
    title: "An instant pack's cards are never eligible for sell-back",
    rule: "Instant cards have no sell-back window: a sell-back quote of an instant pack's cards lists each ineligible with a reason and none among eligible_token_ids (that they can be redeemed is not checked: see docs/decisions.md).",
    ...withTierWallet,
    spendUsdc: INSTANT_USDC,
    deviation: "instant_card_sellback_eligible",
    run: isolated(async (ctx) => {
      const { key, wallet, tokens } = await instantCards(ctx);
      const q = expectSuccess(
        await ctx.http.post(`${M}/sellback/quote`, { key, body: { wallet_address: wallet, token_ids: tokens } }),
        "POST /mystery/sellback/quote of instant cards",
      ).data as { items: { token_id: string; eligible: boolean; reason: unknown }[]; eligible_token_ids: string[] };
      ensure(
        q.items.length === tokens.length,
        `the quote must list the ${tokens.length} tokens, lists ${q.items.length}`,
      );
      for (const i of q.items)
        ensure(
          i.eligible === false && typeof i.reason === "string",
          `instant card ${i.token_id} must be ineligible for sell-back with a reason, got eligible ${String(i.eligible)}, reason ${JSON.stringify(i.reason)}`,
        );
      ensure(q.eligible_token_ids.length === 0, `no instant card is eligible, got ${q.eligible_token_ids.join(", ")}`);
    }),
  },
  {
    id: "mystery.sellback-refusal-details",
    guards:
      "docs/reference/api-rules.md “Errors” (details is an object of context; a sell-back refusal names the token and the reason)",
    profile: "mystery",
    title: "A refused sell-back names the token and the reason in details",
    rule: "A sell-back prepare refused with a 409 carries details, an object naming a token of the batch (token_id) and why it cannot be sold back (reason).",
    ...withTierWallet,
    spendUsdc: INSTANT_USDC,
    deviation: "sellback_refusal_without_details",
    run: isolated(async (ctx) => {
      const { key, wallet, tokens } = await instantCards(ctx);
      const r = await ctx.http.post(`${M}/sellback/prepare`, {
        key,
        body: { wallet_address: wallet, token_ids: tokens },
      });
      ensure(r.status === 409, `a sell-back prepare of instant cards must be refused with 409, got ${r.status}`);
      const e = expectError(
        r,
        409,
        String((r.body as { error?: unknown }).error),
        "sell-back prepare of instant cards",
      );
      const details = e.details as { token_id?: unknown; reason?: unknown } | undefined;
      ensure(details && typeof details === "object", `the refusal must carry details, got ${JSON.stringify(details)}`);
      ensure(
        typeof details.token_id === "string" && tokens.includes(details.token_id),
        `details.token_id must name a token of the batch (${tokens.join(", ")}), got ${JSON.stringify(details.token_id)}`,
      );
      ensure(
        typeof details.reason === "string" && details.reason.length > 0,
        `details.reason must say why, got ${JSON.stringify(details.reason)}`,
      );
    }),
  },
  {
    id: "mystery.sellback-preflight-409",
    guards:
      "docs/reference/live-service.md “Sell-back” (only the original recipient, only before the window closes; 409 window_expired / wrong_holder); docs/reference/api-rules.md “Error codes” (409 pre-flight)",
    profile: "mystery",
    title: "Sell-back pre-flight: another wallet → 409 wrong_holder; after the window → 409 window_expired",
    rule: "Only the card's original recipient may sell it back, and only before its buyback window closes: a prepare naming another wallet is 409 wrong_holder, and the holder's own prepare once the quote's expires_at has passed is 409 window_expired.",
    ...emulatorOnly("clock", "advances the clock past the sell-back window of freshly revealed cards", [
      "partnerKey",
      "wallet",
      "revenueShareKey",
    ]),
    spendUsdc: PACK_USDC,
    deviation: "sellback_window_never_closes",
    run: isolated(async (ctx) => {
      ensure(ctx.revenueShareKey, "no TIER key");
      ensure(ctx.wallet, "no test wallet");
      const key = ctx.revenueShareKey;
      const w = ctx.wallet;
      const { purchase } = await buyAndReveal({ ...ctx, partnerKey: key }, w);
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
      const q = expectSuccess(
        await ctx.http.post(`${M}/sellback/quote`, {
          key,
          body: { wallet_address: w.address, token_ids: (purchase.items ?? []).map((i) => i.token_id) },
        }),
        "POST /mystery/sellback/quote",
      ).data as { items: { token_id: string; eligible: boolean; expires_at: string | null }[] };
      const item = q.items.find((i) => i.eligible && i.expires_at);
      ensure(item, "no revealed token is eligible for sell-back right after the reveal");
      const prepare = (wallet: string) =>
        ctx.http.post(`${M}/sellback/prepare`, { key, body: { wallet_address: wallet, token_ids: [item.token_id] } });
      expectError(
        await prepare(OTHER_WALLET),
        409,
        "wrong_holder",
        `a sell-back prepare of ${item.token_id} by another wallet`,
      );
      const { now_ms } = await ctx.control!.request<{ now_ms: number }>("GET", "/clock");
      await ctx.control!.advance(Date.parse(item.expires_at!) - now_ms + 60_000);
      expectError(
        await prepare(w.address),
        409,
        "window_expired",
        `the holder's sell-back prepare of ${item.token_id} after ${item.expires_at}`,
      );
    }),
  },
];
