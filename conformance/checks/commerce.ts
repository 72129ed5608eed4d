import { NotApplicable, runs, type Check, type CheckContext } from "../types.ts";
import type { Call, TestWallet } from "../../harness/wallet.ts";
import { vrfRequestIdsFromLogs } from "../../chain/index.ts";
import { cheapestFirst, ensure, expectSuccess, spendMicros, usdcMicros } from "../assert.ts";
import { signatureValid, startCheckReceiver } from "../../harness/webhook-receiver.ts";
import { inSnapshot } from "../isolate.ts";
import { waitFor } from "../wait.ts";
import { webhookHeader } from "../../contract/webhook-signature.ts";
import { US_WITH_PHONE } from "./addresses.ts";

// Commerce a partner ships, run with a funded test wallet and no control plane:
// against the sandbox with --wallet-key/--rpc-url/--max-spend-usdc (real test
// funds; the suite never calls /_emulator in that mode), and in emulator mode
// against the local chain with a fixture account (then the clock is advanced
// instead of waited for). Each purchase spends the cheapest active tier.
//
// Not here: sell-back and redemption beyond prepare (they would spend the
// wallet's cards).

const M = "/api/v1/mystery";
/** The documented Starter price: the most a purchase check spends. */
export const PACK_USDC = 25;
/** The most the instant check spends: the cheapest instant pack in stock (4.99 on the emulator). */
const INSTANT_USDC = 10;

type Tier = { tier_id: number; price_usdc: string; active?: boolean; slot_count?: number };
type Purchase = { id: number; status: string; items?: Array<{ token_id: string; item_type: string }> };

/** The cheapest active tier within the check's spend. */
export async function cheapestTier(ctx: CheckContext): Promise<Tier> {
  const d = expectSuccess(await ctx.http.get(`${M}/catalog`, { key: ctx.partnerKey }), "GET /mystery/catalog").data as {
    tiers: Tier[];
  };
  const tiers = d.tiers
    .filter((t) => t.active !== false && t.price_usdc !== null)
    .sort(cheapestFirst((t) => t.price_usdc));
  ensure(tiers.length > 0, "the catalog has no active tier to buy");
  ensure(
    usdcMicros(tiers[0]!.price_usdc) <= spendMicros(PACK_USDC),
    `the cheapest tier costs ${tiers[0]!.price_usdc} USDC, more than the check's declared spend of ${PACK_USDC}`,
  );
  return tiers[0]!;
}

/** Waits for the reveal: the emulator's clock is advanced (VRF answers 5 s after the request); the sandbox is polled. */
export async function revealed(ctx: CheckContext, id: number): Promise<Purchase> {
  const get = async () =>
    expectSuccess(await ctx.http.get(`${M}/purchase/${id}`, { key: ctx.partnerKey }), `GET /mystery/purchase/${id}`)
      .data as Purchase;
  if (ctx.control) {
    await ctx.control.advance(6_000);
    return get();
  }
  const done = await waitFor(ctx, `purchase ${id}'s reveal`, async () => {
    const p = await get();
    return p.status === "FULFILLED" || p.status === "FAILED" ? p : undefined;
  });
  return done ?? get();
}

/** Non-custodial purchase: prepare → the wallet signs approve + purchase → submit with the VRF request id → reveal. */
export async function buyAndReveal(ctx: CheckContext, wallet: TestWallet): Promise<{ tier: Tier; purchase: Purchase }> {
  const { tier, purchase } = await buySubmitted(ctx, wallet);
  return { tier, purchase: await revealed(ctx, purchase.id) };
}

/** Non-custodial purchase up to its submit (202): the purchase as submit answers it, before its reveal. */
export async function buySubmitted(ctx: CheckContext, wallet: TestWallet): Promise<{ tier: Tier; purchase: Purchase }> {
  const tier = await cheapestTier(ctx);
  const prep = expectSuccess(
    await ctx.http.post(`${M}/purchase/prepare`, {
      key: ctx.partnerKey,
      body: { wallet_address: wallet.address, tier_id: tier.tier_id },
    }),
    "POST /mystery/purchase/prepare",
  ).data as { calls: Call[] };
  ensure(Array.isArray(prep.calls) && prep.calls.length > 0, "prepare must return the calls the wallet signs");
  const receipt = await wallet.send(prep.calls);
  const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
  ensure(requestId !== undefined, `the purchase transaction ${receipt.transactionHash} emitted no VRF request`);
  const body = {
    wallet_address: wallet.address,
    tier_id: tier.tier_id,
    transaction_hash: receipt.transactionHash,
    request_id: String(requestId),
  };
  const sub = expectSuccess(
    await ctx.http.post(`${M}/purchase/submit`, { key: ctx.partnerKey, body }),
    "POST /mystery/purchase/submit",
    202,
  ).data as Purchase;
  ensure(Number.isInteger(sub.id), `submit must return the purchase with its id, got ${JSON.stringify(sub.id)}`);
  return { tier, purchase: sub };
}

export type InstantPack = { packet_type_id: number; price: string; price_usdc: string; available_packs: number };
type InstantPurchase = {
  id: number;
  status: string;
  price: string;
  transaction_hash: string | null;
  purchaser_address: string | null;
  onchain_request_id: string | null;
  pack?: { unique_id: string; opened_at: string | null } | null;
  cards?: Array<{ token_id: string }>;
};
const TERMINAL_INSTANT = new Set(["FULFILLED", "FAILED", "REFUNDED"]);

/** Instant pack up to its submit (202): the cheapest in stock → prepare (price capped) → the wallet signs → submit. */
export async function buyInstantSubmitted(
  ctx: CheckContext,
  wallet: TestWallet,
): Promise<{ pack: InstantPack; purchase: InstantPurchase; hash: string }> {
  const I = "/api/v1/instant";
  const packs = (
    expectSuccess(await ctx.http.get(`${I}/catalog`, { key: ctx.partnerKey }), "GET /instant/catalog").data as {
      packs: InstantPack[];
    }
  ).packs;
  const pack = packs.filter((p) => p.available_packs > 0).sort(cheapestFirst((p) => p.price_usdc))[0];
  if (!pack) throw new NotApplicable("no instant pack is in stock on the target");
  if (usdcMicros(pack.price_usdc) > spendMicros(INSTANT_USDC))
    throw new NotApplicable(
      `the cheapest instant pack costs ${pack.price_usdc} USDC, more than the check's declared spend of ${INSTANT_USDC}`,
    );
  const body = { packet_type_id: pack.packet_type_id, wallet_address: wallet.address, max_price_usdc: pack.price_usdc };
  const prep = expectSuccess(
    await ctx.http.post(`${I}/purchase/prepare`, { key: ctx.partnerKey, body }),
    "POST /instant/purchase/prepare",
  ).data as { price: string; calls: Call[] };
  ensure(prep.price === pack.price, `prepare must charge the catalog's price ${pack.price}, asks ${prep.price}`);
  ensure(
    Array.isArray(prep.calls) && prep.calls.length === 2,
    `prepare returns the two calls the wallet signs (approve, buy-and-open), got ${JSON.stringify(prep.calls?.length)}`,
  );
  const receipt = await wallet.send(prep.calls);
  const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
  ensure(requestId !== undefined, `the instant purchase transaction ${receipt.transactionHash} emitted no VRF request`);
  const sub = expectSuccess(
    await ctx.http.post(`${I}/purchase/submit`, {
      key: ctx.partnerKey,
      body: {
        packet_type_id: pack.packet_type_id,
        transaction_hash: receipt.transactionHash,
        request_id: String(requestId),
        wallet_address: wallet.address,
      },
    }),
    "POST /instant/purchase/submit",
    202,
  ).data as InstantPurchase;
  ensure(Number.isInteger(sub.id), `submit must return the purchase with its id, got ${JSON.stringify(sub.id)}`);
  ensure(
    sub.onchain_request_id === String(requestId),
    `submit must link the receipt's VRF request ${requestId}, got ${sub.onchain_request_id}`,
  );
  return { pack, purchase: sub, hash: receipt.transactionHash };
}

/** Instant pack: the cheapest in stock → prepare (price capped) → the wallet signs → submit → poll until delivered. */
export async function buyInstant(
  ctx: CheckContext,
  wallet: TestWallet,
): Promise<{ pack: InstantPack; purchase: InstantPurchase; hash: string }> {
  const I = "/api/v1/instant";
  const { pack, purchase: sub, hash } = await buyInstantSubmitted(ctx, wallet);
  const receipt = { transactionHash: hash };
  const get = async () =>
    expectSuccess(
      await ctx.http.get(`${I}/purchase/${sub.id}`, { key: ctx.partnerKey }),
      `GET /instant/purchase/${sub.id}`,
    ).data as InstantPurchase;
  if (ctx.control) {
    await ctx.control.advance(6_000);
    return { pack, purchase: await get(), hash: receipt.transactionHash };
  }
  const done = await waitFor(ctx, `instant purchase ${sub.id}'s delivery`, async () => {
    const p = await get();
    return TERMINAL_INSTANT.has(p.status) ? p : undefined;
  });
  return { pack, purchase: done ?? (await get()), hash: receipt.transactionHash };
}

/**
 * In emulator mode a commerce check leaves no trace (its purchases and events would change what
 * later checks see): it runs between a snapshot and its restore. The sandbox keeps what was bought.
 */
function isolated(run: (ctx: CheckContext) => Promise<void>): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    if (!ctx.control) return run(ctx);
    await inSnapshot(ctx.control, () => run(ctx), { manualClock: false });
  };
}

const wallet = (ctx: CheckContext) => {
  ensure(ctx.wallet, "no test wallet");
  return ctx.wallet;
};

/** Every commerce check: sandbox writes, a partner key and the funded wallet, no credits. */
const withWallet = runs("sandbox", ["partnerKey", "wallet"]);

export const commerceChecks: Check[] = [
  {
    id: "commerce.purchase-reveal",
    guards:
      "docs/reference/api-rules.md “States and transitions” (purchase) and “Mystery commerce endpoints”; docs/reference/live-service.md “Purchases” and “Flows”",
    profile: "mystery",
    title: "A non-custodial purchase signed by the wallet is revealed: FULFILLED with one item per slot",
    rule: "prepare returns the calls the end user's wallet signs; submit links the mined transaction and its VRF request; the reveal makes the purchase FULFILLED with the tier's items, each a token.",
    ...withWallet,
    spendUsdc: PACK_USDC,
    deviation: "lifecycle_purchase_never_fulfilled",
    run: isolated(async (ctx) => {
      const { tier, purchase } = await buyAndReveal(ctx, wallet(ctx));
      ensure(
        purchase.status === "FULFILLED",
        `purchase ${purchase.id} must be FULFILLED after the reveal, is ${purchase.status}`,
      );
      const items = purchase.items ?? [];
      ensure(
        items.length > 0 && (tier.slot_count === undefined || items.length === tier.slot_count),
        `tier ${tier.tier_id} reveals ${tier.slot_count} items, purchase ${purchase.id} has ${items.length}`,
      );
      for (const i of items)
        ensure(
          /^\d+$/.test(String(i.token_id)),
          `each item carries its token id as a decimal string, got ${JSON.stringify(i.token_id)}`,
        );
      ctx.note(`purchase ${purchase.id}: tier ${tier.tier_id} (${tier.price_usdc} USDC), ${items.length} items`);
    }),
  },
  {
    id: "commerce.purchase-webhook",
    guards:
      "docs/reference/api-rules.md “Events”; docs/reference/live-service.md “Webhook delivery and signatures” (signature) and docs/reference/sdk-shapes.md “Webhook event data” (purchase.fulfilled payload)",
    profile: "webhooks",
    title:
      "A real purchase's purchase.fulfilled reaches the partner's receiver, signed (or, without one, the delivery log)",
    rule: "When a purchase is revealed, every webhook of the account subscribed to purchase.fulfilled gets {event, id, data{purchase_id, …}} signed with its secret; the delivery log lists the attempt.",
    ...withWallet,
    spendUsdc: PACK_USDC,
    deviation: "webhook_secret_mismatch",
    run: isolated(async (ctx) => {
      const rx = ctx.receiver ? await startCheckReceiver(200, ctx.receiver) : null;
      const url = rx?.url ?? "https://example.com/cardos-conformance-delivery";
      const reg = expectSuccess(
        await ctx.http.post("/api/v1/webhooks", {
          key: ctx.partnerKey,
          body: { url, event_types: ["purchase.fulfilled"] },
        }),
        "register a webhook",
        201,
      ).data as { id: number; signing_secret: string };
      try {
        const { purchase } = await buyAndReveal(ctx, wallet(ctx));
        ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
        if (rx) {
          await ctx.control?.advance(0);
          const d = await waitFor(
            ctx,
            "the purchase.fulfilled delivery",
            async () => rx.deliveries.find((x) => webhookHeader(x.headers, "event") === "purchase.fulfilled"),
            ctx.control ? 2_000 : Infinity,
          );
          ensure(d, `the receiver got no purchase.fulfilled delivery (it saw ${rx.deliveries.length} deliveries)`);
          const body = JSON.parse(d.body) as { event?: string; id?: string; data?: { purchase_id?: unknown } };
          ensure(
            body.event === "purchase.fulfilled" && body.data?.purchase_id === purchase.id,
            `the delivery must be purchase.fulfilled for purchase ${purchase.id}, got ${d.body.slice(0, 160)}`,
          );
          const v = await signatureValid(reg.signing_secret, webhookHeader(d.headers, "signature") ?? "", d.body);
          ensure(v.ok, "X-Mystery-Signature must verify with the secret returned at registration");
          ctx.note(`delivered ${body.id} to the suite's receiver, signature verified`);
        } else {
          // The suite exposes no receiver the target can reach: the delivery log must show the attempt for this webhook.
          const row = await waitFor(ctx, "the delivery's log row", async () => {
            const log = expectSuccess(
              await ctx.http.get("/api/v1/webhooks/deliveries", { key: ctx.partnerKey, query: { limit: 100 } }),
              "GET /webhooks/deliveries",
            ).data as { deliveries: Array<Record<string, unknown>> };
            return log.deliveries.find((r) => r.webhook_id === reg.id && r.event_type === "purchase.fulfilled");
          });
          ensure(row, `the delivery log lists no purchase.fulfilled attempt for webhook ${reg.id}`);
          ctx.note(`delivery ${String(row.id)} logged (${String(row.status)})`);
        }
      } finally {
        await rx?.close();
        await ctx.http.call("DELETE", `/api/v1/webhooks/${reg.id}`, { key: ctx.partnerKey });
      }
    }),
  },
  {
    id: "commerce.instant-delivery",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” and “Polling” (instant prepare → submit → waitForDelivery: FULFILLED); docs/reference/sdk-shapes.md “Instant shapes” InstantPurchase; docs/reference/live-service.md “Instant packs”",
    profile: "mystery",
    title:
      "An instant pack bought and opened by the wallet is delivered: FULFILLED with its pack and cards, listed for the wallet",
    rule: "prepare charges the catalog's price and returns approve + buy-and-open; submit links the mined transaction and its VRF request (202); once drawn the purchase reads FULFILLED with the price, hash and purchaser of the transaction, its opened pack and its cards, each a token; the wallet's purchase list holds it.",
    ...withWallet,
    spendUsdc: INSTANT_USDC,
    deviation: "lifecycle_instant_never_fulfilled",
    run: isolated(async (ctx) => {
      const w = wallet(ctx);
      const { pack, purchase, hash } = await buyInstant(ctx, w);
      ensure(
        purchase.status === "FULFILLED",
        `instant purchase ${purchase.id} must be FULFILLED once its bundle is drawn, is ${purchase.status}`,
      );
      ensure(
        purchase.price === pack.price,
        `the purchase must record the price paid ${pack.price}, has ${purchase.price}`,
      );
      ensure(
        purchase.transaction_hash?.toLowerCase() === hash.toLowerCase(),
        `transaction_hash ${purchase.transaction_hash} must be the submitted ${hash}`,
      );
      ensure(
        purchase.purchaser_address?.toLowerCase() === w.address.toLowerCase(),
        `purchaser_address ${purchase.purchaser_address} must be the wallet ${w.address}`,
      );
      ensure(
        purchase.pack && typeof purchase.pack.opened_at === "string",
        `a delivered purchase carries its opened pack, got ${JSON.stringify(purchase.pack)}`,
      );
      const cards = purchase.cards ?? [];
      ensure(cards.length > 0, `a delivered purchase carries its cards, got ${cards.length}`);
      for (const c of cards)
        ensure(
          /^\d+$/.test(String(c.token_id)),
          `each card carries its token id as a decimal string, got ${JSON.stringify(c.token_id)}`,
        );
      const list = expectSuccess(
        await ctx.http.get("/api/v1/instant/purchases", {
          key: ctx.partnerKey,
          query: { wallet_address: w.address, limit: 100 },
        }),
        "GET /instant/purchases?wallet_address=",
      ).data as { purchases: InstantPurchase[] };
      ensure(
        list.purchases.some((p) => p.id === purchase.id),
        `the wallet's purchase list must hold purchase ${purchase.id}`,
      );
      // The catalog read again (sold-out packs too): its stock has fallen by the unit bought (invariant instant.stock-falls).
      const after = (
        expectSuccess(
          await ctx.http.get("/api/v1/instant/catalog", { key: ctx.partnerKey, query: { include_unavailable: "1" } }),
          "GET /instant/catalog?include_unavailable=1",
        ).data as { packs: InstantPack[] }
      ).packs.find((p) => p.packet_type_id === pack.packet_type_id);
      ensure(after, `the catalog must still list packet type ${pack.packet_type_id} (include_unavailable=1)`);
      ctx.note(
        `instant purchase ${purchase.id}: packet type ${pack.packet_type_id} (${pack.price_usdc} USDC), ${cards.length} cards`,
      );
    }),
  },
  {
    id: "commerce.sellback-prepare",
    guards:
      "docs/reference/live-service.md “Sell-back” (sell-back, TIER model: quote → prepare → sign → submit); docs/reference/api-rules.md “Other limits” (default buyback offer 85% of card value)",
    profile: "mystery",
    title:
      "Sell-back of freshly revealed cards: the quote adds up and prepare carries exactly what was quoted (not sent)",
    rule: "POST /mystery/sellback/quote: each eligible item pays its oracle value less 15%; total_payout = the sum of the eligible items; prepare returns the quoted payout, the eligible token ids, a min_total not above it, and the calls ending with the sell-back.",
    ...runs("sandbox", ["partnerKey", "wallet", "revenueShareKey"]),
    spendUsdc: PACK_USDC,
    deviation: "sellback_quote_total_off",
    run: isolated(async (ctx) => {
      // Sell-back is for TIER (revenue-share) partners: the --revenue-share-key (the emulator makes one).
      ensure(ctx.revenueShareKey, "no TIER key");
      const key = ctx.revenueShareKey;
      const terms = expectSuccess(await ctx.http.get(`${M}/terms`, { key }), "GET /mystery/terms").data as {
        billing_model?: string;
      };
      if (terms.billing_model !== "TIER")
        throw new NotApplicable(
          `sell-back is for TIER partners; --revenue-share-key's billing model is ${String(terms.billing_model)}`,
        );
      const c = { ...ctx, partnerKey: key };
      const w = wallet(ctx);
      const { purchase } = await buyAndReveal(c, w);
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
      const tokenIds = (purchase.items ?? []).map((i) => i.token_id);
      type Item = { token_id: string; eligible: boolean; oracle_value_usdc: string; payout_micros: string };
      const q = expectSuccess(
        await ctx.http.post(`${M}/sellback/quote`, { key, body: { wallet_address: w.address, token_ids: tokenIds } }),
        "POST /mystery/sellback/quote",
      ).data as {
        items: Item[];
        eligible_token_ids: string[];
        total_payout_micros: string;
        total_payout_usdc: string;
      };
      const eligible = q.items.filter((i) => i.eligible);
      ensure(
        eligible.length > 0,
        `none of the revealed tokens ${tokenIds.join(", ")} is eligible for sell-back right after the reveal`,
      );
      ensure(
        JSON.stringify(q.eligible_token_ids) === JSON.stringify(eligible.map((i) => i.token_id)),
        `eligible_token_ids ${JSON.stringify(q.eligible_token_ids)} must list the eligible items ${JSON.stringify(eligible.map((i) => i.token_id))}`,
      );
      const sum = eligible.reduce((n, i) => n + BigInt(i.payout_micros), 0n);
      ensure(
        BigInt(q.total_payout_micros) === sum,
        `total_payout_micros ${q.total_payout_micros} must be the sum of the eligible payouts (${sum})`,
      );
      ensure(
        usdcMicros(q.total_payout_usdc) === sum,
        `total_payout_usdc ${q.total_payout_usdc} must equal total_payout_micros ${q.total_payout_micros}`,
      );
      for (const i of eligible) {
        const value = usdcMicros(i.oracle_value_usdc);
        const expected = (value * 85n) / 100n;
        ensure(
          BigInt(i.payout_micros) <= expected + 1n && BigInt(i.payout_micros) >= expected - 10_000n,
          `token ${i.token_id}: payout ${i.payout_micros} micros is not 85% of its value ${i.oracle_value_usdc}`,
        );
      }
      const p = expectSuccess(
        await ctx.http.post(`${M}/sellback/prepare`, {
          key,
          body: { wallet_address: w.address, token_ids: q.eligible_token_ids },
        }),
        "POST /mystery/sellback/prepare",
      ).data as {
        quoted_payout_usdc: string;
        token_ids: string[];
        min_total: string;
        calls: Call[];
      };
      ensure(
        p.quoted_payout_usdc === q.total_payout_usdc,
        `prepare must carry the quoted payout ${q.total_payout_usdc}, got ${p.quoted_payout_usdc}`,
      );
      ensure(
        JSON.stringify(p.token_ids) === JSON.stringify(q.eligible_token_ids),
        "prepare must sell exactly the quoted eligible tokens",
      );
      ensure(
        BigInt(p.min_total) <= BigInt(q.total_payout_micros),
        `min_total ${p.min_total} must not exceed the quote ${q.total_payout_micros}`,
      );
      ensure(
        p.calls.length > 0 && p.calls.at(-1)!.kind === "sellback",
        `the calls must end with the sell-back, got ${p.calls.map((x) => x.kind).join(", ")}`,
      );
      ctx.note(`quoted ${q.total_payout_usdc} USDC for ${eligible.length} token(s); prepared, not sent`);
    }),
  },
  {
    id: "commerce.redemption-prepare",
    guards:
      "docs/reference/live-service.md “Redemption” (physical redemption: quote → prepare; burn on dispatch); docs/reference/sdk-shapes.md “Redemption shapes” (prepare)",
    profile: "mystery",
    title: "A revealed card is quoted and prepared for redemption (calls not sent: nothing burned or paid)",
    rule: "POST /mystery/redemption/quote prices shipping (a non-US destination needs a phone: 400 phone_required); prepare with an Idempotency-Key returns PREPARED with the shipping payment and the calls burn, erc20-approve, shipping-payment (or, KYC pending, a kyc_url and no calls); a retry answers the same redemption.",
    ...withWallet,
    spendUsdc: PACK_USDC,
    deviation: "redemption_burn_only_calls",
    run: isolated(async (ctx) => {
      const w = wallet(ctx);
      const { purchase } = await buyAndReveal(ctx, w);
      ensure(purchase.status === "FULFILLED", `purchase ${purchase.id} must be FULFILLED, is ${purchase.status}`);
      const noPhone = await ctx.http.post(`${M}/redemption/quote`, {
        key: ctx.partnerKey,
        body: {
          purchase_id: purchase.id,
          shipping_address: {
            ...US_WITH_PHONE,
            country: "FR",
            state: undefined,
            zip: "75001",
            city: "Paris",
            phone: undefined,
          },
        },
      });
      ensure(
        noPhone.status === 400 && (noPhone.body as { error?: unknown }).error === "phone_required",
        `a quote to FR without a phone must be 400 phone_required, got ${noPhone.status} ${noPhone.text.slice(0, 120)}`,
      );
      const quote = expectSuccess(
        await ctx.http.post(`${M}/redemption/quote`, {
          key: ctx.partnerKey,
          body: { purchase_id: purchase.id, shipping_address: US_WITH_PHONE },
        }),
        "POST /mystery/redemption/quote",
      ).data as {
        shipping_quote: { amount_usdc: string };
      };
      ensure(
        usdcMicros(quote.shipping_quote?.amount_usdc) > 0n,
        `the quote must price the shipping, got ${JSON.stringify(quote.shipping_quote)}`,
      );
      // Prepare (with an Idempotency-Key) creates the redemption; its calls are not sent, so nothing is burned or paid.
      type Prepared = {
        redemption_id: number;
        status: string;
        kyc: { status: string; kyc_url: string | null };
        shipping_payment: { total_usdc: string } | null;
        unsigned: { calls: Call[] } | null;
      };
      const headers = { "Idempotency-Key": `conformance-redeem-${purchase.id}` };
      const body = { purchase_id: purchase.id, shipping_address: US_WITH_PHONE, shipping_payer: "end_user" };
      const prep = expectSuccess(
        await ctx.http.post(`${M}/redemption/prepare`, { key: ctx.partnerKey, body, headers }),
        "POST /mystery/redemption/prepare",
        201,
      ).data as Prepared;
      ensure(prep.status === "PREPARED", `prepare must leave the redemption PREPARED, it is ${prep.status}`);
      if (prep.kyc?.status === "PENDING") {
        ensure(
          typeof prep.kyc.kyc_url === "string" && prep.unsigned === null,
          "a redemption awaiting KYC carries the kyc_url and no calls yet",
        );
      } else {
        const kinds = (prep.unsigned?.calls ?? []).map((x) => x.kind);
        ensure(
          JSON.stringify(kinds) === JSON.stringify(["burn", "erc20-approve", "shipping-payment"]),
          `the holder signs burn, erc20-approve, shipping-payment; got ${kinds.join(", ")}`,
        );
        ensure(
          prep.shipping_payment != null &&
            usdcMicros(prep.shipping_payment.total_usdc) >= usdcMicros(quote.shipping_quote.amount_usdc),
          `the shipping payment must cover the quoted ${quote.shipping_quote.amount_usdc}, got ${JSON.stringify(prep.shipping_payment)}`,
        );
      }
      const again = expectSuccess(
        await ctx.http.post(`${M}/redemption/prepare`, { key: ctx.partnerKey, body, headers }),
        "prepare retried",
        201,
      ).data as Prepared;
      ensure(
        again.redemption_id === prep.redemption_id,
        `a retried prepare (same Idempotency-Key) must answer redemption ${prep.redemption_id}, got ${again.redemption_id}`,
      );
      ctx.note(
        `purchase ${purchase.id}: shipping ${quote.shipping_quote.amount_usdc} USDC; redemption ${prep.redemption_id} ${prep.status}, not sent`,
      );
    }),
  },
];
