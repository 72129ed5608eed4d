import { emulatorOnly, runs, type Check, type CheckContext } from "../types.ts";
import { ensure, expectError, expectSuccess } from "../assert.ts";
import { sameAcrossReads } from "../progress.ts";
import type { AnyLifecycle } from "../../contract/lifecycle.ts";
import { MYSTERY_PURCHASE, REDEMPTION } from "../../contract/lifecycles/index.ts";
import { rpcMissing } from "./target.ts";
import { buyAndReveal, endUserWallet, type Call } from "../../scenarios/mystery.ts";
import { buyAndReveal as buyWithWallet, PACK_USDC } from "./commerce.ts";
import type { TransactionReceipt } from "viem";
import type { HttpResult } from "../../harness/http.ts";
import { isolatedCheck, scenarioContext } from "../isolate.ts";

// Checks of physical redemption as the live service runs it (SDK 0.1.2,
// docs/reference/live-service.md “Redemption”; docs/reference/api-rules.md where it speaks): the holder
// pays shipping on chain, the item ships only once that payment landed, KYC
// only "if required". Those that need a redeemable item buy one: in emulator
// mode with a fixture wallet over the emulator's JSON-RPC, between a snapshot
// and its restore; elsewhere with the partner's test wallet, waiting for the
// reveal in real time (the sandbox keeps what was bought).

const M = "/api/v1/mystery";
const HOUR = 60 * 60 * 1000;
/** The most a check's shipping payment may cost (it sends it). */
const SHIPPING_USDC = 25;
const US = { name: "Conformance", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

interface Prepared {
  redemption_id: number;
  status: string;
  token_id: string;
  expires_at: string;
  kyc?: { status: string; kyc_url?: string | null };
  shipping_payment: {
    payer: string;
    processor: string;
    total_micros: string;
    total_usdc: string;
    expiration_time: number;
    provider_order_id: string;
  } | null;
  unsigned: { chain_id: number; calls: Call[] } | null;
}
interface Row {
  redemption_id: number;
  status: string;
  burn_tx_hash: string | null;
}

interface Bench {
  wallet: { address: string; send(calls: Call[]): Promise<TransactionReceipt> };
  /** A revealed Starter pack of the check's key: its CARD token. */
  card: string;
  purchaseId: number;
}

/**
 * Runs `body` with a revealed card of the check's key: in emulator mode on a manual clock, the state
 * restored after; elsewhere bought with the test wallet (`needs: ["wallet"]`), the reveal waited for.
 */
async function withCard(ctx: CheckContext, body: (b: Bench) => Promise<void>): Promise<void> {
  if (!ctx.control) {
    ensure(ctx.wallet, "no test wallet");
    const { purchase } = await buyWithWallet(ctx, ctx.wallet);
    const card = purchase.items?.find((i) => i.item_type === "CARD");
    ensure(
      purchase.status === "FULFILLED" && card,
      `purchase ${purchase.id} must be FULFILLED with a card, is ${purchase.status}`,
    );
    const w = ctx.wallet;
    return body({
      wallet: { address: w.address, send: (calls) => w.send(calls) },
      card: card.token_id,
      purchaseId: purchase.id,
    });
  }
  await isolatedCheck(ctx, async () => {
    const sc = scenarioContext(ctx);
    const wallet = await endUserWallet(sc, 3);
    const p = await buyAndReveal(sc, ctx.partnerKey, wallet, 1);
    const card = p.items!.find((i) => i.item_type === "CARD")!;
    await body({ wallet, card: card.token_id, purchaseId: p.id });
  });
}

/** Idempotency keys are the check's name and the card's: a used target never answers an earlier run's redemption. */
const prepare = async (
  ctx: CheckContext,
  b: Bench,
  idemKey: string,
  extra: Record<string, unknown> = {},
): Promise<HttpResult> =>
  ctx.http.post(`${M}/redemption/prepare`, {
    key: ctx.partnerKey,
    body: { token_id: b.card, shipping_address: US, ...extra },
    headers: { "Idempotency-Key": `${idemKey}-${b.purchaseId}-${b.card}` },
  });

const prepared = (r: HttpResult, what: string) => expectSuccess(r, what, 201).data as Prepared;

/** A PREPARED redemption of the bench's card and the calls the holder signs (burn, approve, shipping payment). */
async function preparedWithCalls(ctx: CheckContext, b: Bench, idemKey: string): Promise<Prepared & { calls: Call[] }> {
  const p = prepared(await prepare(ctx, b, idemKey), "prepare");
  ensure(p.unsigned, "prepare must return unsigned calls");
  return { ...p, calls: p.unsigned.calls };
}

async function rowOf(ctx: CheckContext, b: Bench, id: number, verify = false): Promise<Row> {
  const r = await ctx.http.get(`${M}/redemption/${b.card}`, {
    key: ctx.partnerKey,
    ...(verify ? { query: { verify: "true" } } : {}),
  });
  const rows = (expectSuccess(r, `GET /mystery/redemption/${b.card}`).data as { redemptions: Row[] }).redemptions;
  const row = rows.find((x) => x.redemption_id === id);
  ensure(row, `redemption ${id} missing from the get by token`);
  return row;
}

const base = { profile: "mystery" as const, credits: 0 };
/** Buys a pack with the test wallet (sandbox) or a fixture wallet (emulator); may send the redemption's calls too. */
const chained = { ...base, ...runs("sandbox", ["partnerKey", "wallet"]), spendUsdc: PACK_USDC, applicable: rpcMissing };
/** Needs the control plane beyond the purchase: `what` it does with it. */
const operated = (power: "clock" | "faults" | "operator", what: string) => ({
  ...base,
  ...emulatorOnly(power, what, ["partnerKey"]),
  applicable: rpcMissing,
});

export const redemptionChecks: Check[] = [
  {
    ...base,
    id: "redemption.shipping-payer",
    guards:
      "docs/reference/sdk-shapes.md “Redemption shapes” RedemptionShippingPayer; docs/reference/live-service.md “Redemption”",
    title: 'Redemption prepare takes shipping_payer "end_user" only → else 400 invalid_shipping_payer',
    rule: 'shipping_payer is only "end_user" (the holder pays shipping); anything else in the prepare body is 400 invalid_shipping_payer.',
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "redemption_shipping_payer_any",
    async run({ http, partnerKey }) {
      const r = await http.post(`${M}/redemption/prepare`, {
        key: partnerKey,
        body: { token_id: "1", shipping_address: US, shipping_payer: "partner" },
        headers: { "Idempotency-Key": "conformance-shipping-payer" },
      });
      expectError(r, 400, "invalid_shipping_payer", 'prepare with shipping_payer "partner"');
    },
  },
  {
    ...chained,
    id: "redemption.prepare-shipping-payment",
    guards:
      "docs/reference/sdk-shapes.md “Redemption shapes” RedemptionPrepareResult, RedemptionShippingPayment, RedemptionCallKind",
    title: "Redemption prepare returns shipping_payment and the calls burn, erc20-approve, shipping-payment",
    rule: "prepare answers shipping_payer end_user, shipping_payment {payer = holder, processor, total_usdc/micros = the snapshotted quote, expiration_time = expires_at, provider_order_id} and unsigned.calls in the order burn, erc20-approve, shipping-payment.",
    deviation: "redemption_burn_only_calls",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const p = prepared(await prepare(ctx, b, "conformance-calls"), "prepare");
        ensure(p.status === "PREPARED" && p.unsigned, `PREPARED with unsigned calls expected, got ${p.status}`);
        const kinds = p.unsigned.calls.map((c) => c.kind);
        ensure(
          kinds.join() === "burn,erc20-approve,shipping-payment",
          `calls must be burn, erc20-approve, shipping-payment; got ${kinds.join()}`,
        );
        const pay = p.shipping_payment;
        ensure(pay, "shipping_payment must be present until the holder paid");
        ensure(
          pay.payer.toLowerCase() === b.wallet.address.toLowerCase(),
          `shipping_payment.payer must be the holder ${b.wallet.address}, got ${pay.payer}`,
        );
        ensure(
          p.unsigned.calls[2]!.to.toLowerCase() === pay.processor.toLowerCase(),
          "the shipping-payment call goes to shipping_payment.processor",
        );
        ensure(
          /^\d+$/.test(pay.total_micros) && BigInt(pay.total_micros) > 0n,
          `total_micros must be positive integer micros, got ${pay.total_micros}`,
        );
        ensure(
          pay.expiration_time === Math.floor(Date.parse(p.expires_at) / 1000),
          `expiration_time ${pay.expiration_time} must match expires_at ${p.expires_at}`,
        );
      });
    },
  },
  {
    ...operated("clock", "advances 25 hours to the quote's expiry"),
    id: "redemption.unpaid-burn-not-shipped",
    guards: "docs/reference/live-service.md “Redemption” (the item ships once the shipping payment lands on chain)",
    title: "A burn without the shipping payment does not ship; it is CANCELLED when the quote expires",
    rule: "The item ships only once the shipping payment has landed on chain: a submitted burn without it stays BURN_SUBMITTED and is CANCELLED at expires_at (the burn cancelled on chain).",
    deviation: "redemption_ships_unpaid",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const p = await preparedWithCalls(ctx, b, "conformance-unpaid");
        const burn = await b.wallet.send(p.calls.slice(0, 1)); // the burn flag only
        const sub = await ctx.http.post(`${M}/redemption/submit`, {
          key: ctx.partnerKey,
          body: { redemption_id: p.redemption_id, tx_hash: burn.transactionHash },
        });
        expectSuccess(sub, "submit the burn", 202);
        await ctx.control!.advance(2 * HOUR); // past the warehouse's first step
        const waiting = await rowOf(ctx, b, p.redemption_id);
        ensure(
          waiting.status === "BURN_SUBMITTED",
          `an unpaid burn must not move to fulfilment; got ${waiting.status}`,
        );
        await ctx.control!.advance(23 * HOUR);
        const ended = await rowOf(ctx, b, p.redemption_id);
        ensure(ended.status === "CANCELLED", `an unpaid burn must end CANCELLED at expires_at; got ${ended.status}`);
      });
    },
  },
  {
    ...chained,
    id: "redemption.by-id-equals-listed",
    guards:
      "docs/reference/sdk-shapes.md “Mystery pack methods” (getPurchase, listPurchases, getRedemption, listRedemptions)",
    title: "A purchase and a redemption fetched by id equal the same resource listed, field by field",
    rule: "One resource, many routes: GET /mystery/purchase/{id} answers the same fields and values (amounts in micros) as the purchase's row in GET /mystery/purchases; a redemption's row in GET /mystery/redemption/{token} equals its row in GET /mystery/redemptions.",
    deviation: "purchase_by_id_price_scaled",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const key = ctx.partnerKey;
        // Reads taken at different moments: each record may move on between them, forward along its lifecycle only.
        const byId = async () =>
          expectSuccess(
            await ctx.http.get(`${M}/purchase/${b.purchaseId}`, { key }),
            `GET /mystery/purchase/${b.purchaseId}`,
          ).data as Record<string, unknown>;
        const listed = async () => {
          const purchases = (
            expectSuccess(
              await ctx.http.get(`${M}/purchases`, { key, query: { limit: "100" } }),
              "GET /mystery/purchases",
            ).data as { purchases: Record<string, unknown>[] }
          ).purchases;
          const row = purchases.find((p) => p.id === b.purchaseId);
          ensure(row, `purchase ${b.purchaseId} missing from GET /mystery/purchases`);
          return row;
        };
        await sameAcrossReads(MYSTERY_PURCHASE as AnyLifecycle, { byId, listed }, `purchase ${b.purchaseId}`);
        const p = prepared(await prepare(ctx, b, `by-id-${b.purchaseId}-${Date.now()}`), "prepare");
        const rowById = async () => (await rowOf(ctx, b, p.redemption_id)) as unknown as Record<string, unknown>;
        const listedR = async () => {
          const rows = (
            expectSuccess(
              await ctx.http.get(`${M}/redemptions`, { key, query: { limit: "100" } }),
              "GET /mystery/redemptions",
            ).data as { redemptions: Record<string, unknown>[] }
          ).redemptions;
          const row = rows.find((r) => r.redemption_id === p.redemption_id);
          ensure(row, `redemption ${p.redemption_id} missing from GET /mystery/redemptions`);
          return row;
        };
        await sameAcrossReads(
          REDEMPTION as AnyLifecycle,
          { byId: rowById, listed: listedR },
          `redemption ${p.redemption_id}`,
        );
      });
    },
  },
  {
    ...chained,
    spendUsdc: PACK_USDC + SHIPPING_USDC,
    id: "redemption.verify",
    guards:
      "docs/reference/sdk-shapes.md “Redemption shapes” (get: query verify); docs/reference/live-service.md “Redemption” (?verify=true forces the on-chain read)",
    title: "GET /mystery/redemption/{token}?verify=true reconciles the record with the chain",
    rule: "?verify=true reads the chain first: a burn and shipping payment the holder sent but never submitted show as BURN_SUBMITTED with its burn_tx_hash.",
    deviation: "redemption_verify_ignored",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const p = await preparedWithCalls(ctx, b, "conformance-verify");
        const burn = await b.wallet.send(p.calls.slice(0, 1));
        await b.wallet.send(p.calls.slice(1));
        const row = await rowOf(ctx, b, p.redemption_id, true);
        ensure(
          row.status === "BURN_SUBMITTED",
          `verify=true must see the burn on chain: BURN_SUBMITTED expected, got ${row.status}`,
        );
        ensure(
          row.burn_tx_hash?.toLowerCase() === burn.transactionHash.toLowerCase(),
          `burn_tx_hash must be the burn on chain ${burn.transactionHash}, got ${row.burn_tx_hash}`,
        );
      });
    },
  },
  {
    ...chained,
    id: "redemption.item-type-mismatch",
    guards:
      "docs/reference/sdk-shapes.md “Redemption methods” (409 item_type_mismatch); docs/reference/sdk-shapes.md “Redemption shapes” RedemptionTarget.item_type",
    title: "A target whose item_type is not the token's → 409 item_type_mismatch",
    rule: "item_type only disambiguates a token number; one that is not the item's type is 409 item_type_mismatch (quote and prepare).",
    deviation: "redemption_item_type_ignored",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const body = { token_id: b.card, item_type: "SEALED_PRODUCT", shipping_address: US };
        expectError(
          await ctx.http.post(`${M}/redemption/quote`, { key: ctx.partnerKey, body }),
          409,
          "item_type_mismatch",
          "quote a CARD token as SEALED_PRODUCT",
        );
        expectError(
          await prepare(ctx, b, "conformance-item-type", { item_type: "SEALED_PRODUCT" }),
          409,
          "item_type_mismatch",
          "prepare a CARD token as SEALED_PRODUCT",
        );
        expectSuccess(
          await ctx.http.post(`${M}/redemption/quote`, { key: ctx.partnerKey, body: { ...body, item_type: "CARD" } }),
          "quote with the right item_type",
        );
      });
    },
  },
  {
    ...operated("operator", "writes a second item of the same token number into the state (PUT /_emulator/state)"),
    id: "redemption.ambiguous-token",
    guards:
      "docs/reference/sdk-shapes.md “Redemption methods” (409 ambiguous_token); docs/reference/sdk-shapes.md “Redemption shapes” RedemptionTarget.item_type",
    title: "A token number naming items of several types, without item_type → 409 ambiguous_token listing them",
    rule: "Token-first redemption: where the token number names items of several types (each type has its own item contract on the live service), quote and prepare without item_type answer 409 ambiguous_token with details.item_types; with item_type they proceed.",
    deviation: "redemption_ambiguous_token_guessed",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        // The emulator has one item contract: the same number as a sealed product of a second contract is
        // written into the state (GET, then PUT /_emulator/state), as another of the partner's purchases.
        type Doc = {
          state: {
            areas: {
              mystery: {
                purchases: Record<
                  string,
                  { id: number; items: Array<{ token_id: string; item_type: string; category: string }> }
                >;
              };
            };
          };
        };
        const doc = await ctx.control!.request<Doc>("GET", "/state");
        const purchases = doc.state.areas.mystery.purchases;
        const own = purchases[String(b.purchaseId)]!;
        const item = own.items.find((i) => i.token_id === b.card)!;
        const twin = b.purchaseId + 900_000;
        purchases[String(twin)] = {
          ...own,
          id: twin,
          items: [{ ...item, item_type: "SEALED_PRODUCT", category: "product" }],
        };
        await ctx.control!.request("PUT", "/state", doc);
        const body = { token_id: b.card, shipping_address: US };
        const e = expectError(
          await ctx.http.post(`${M}/redemption/quote`, { key: ctx.partnerKey, body }),
          409,
          "ambiguous_token",
          "quote a token number of two types without item_type",
        );
        const types = (e.details as { item_types?: unknown } | undefined)?.item_types;
        ensure(
          JSON.stringify(types) === JSON.stringify(["CARD", "SEALED_PRODUCT"]),
          `details.item_types must list the types the number names, got ${JSON.stringify(types)}`,
        );
        expectError(
          await prepare(ctx, b, "conformance-ambiguous"),
          409,
          "ambiguous_token",
          "prepare it without item_type",
        );
        expectSuccess(
          await ctx.http.post(`${M}/redemption/quote`, { key: ctx.partnerKey, body: { ...body, item_type: "CARD" } }),
          "quote it with item_type CARD",
        );
      });
    },
  },
  {
    ...operated("faults", "takes the shipping quote signer down and brings it back"),
    id: "redemption.shipping-signer-unavailable",
    guards: "docs/reference/sdk-shapes.md “Redemption methods” (503 shipping_signer_unavailable)",
    title:
      "Shipping signer down → prepare 503 shipping_signer_unavailable (retryable); the same key works once it is back",
    rule: "While the shipping quote signer is unavailable, prepare answers 503 shipping_signer_unavailable with retryable true; a retry with the same Idempotency-Key then opens the redemption.",
    deviation: "redemption_signer_outage_500",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        await ctx.control!.request("POST", "/mystery/shipping-signer", { enabled: false });
        try {
          const e = expectError(
            await prepare(ctx, b, "conformance-signer"),
            503,
            "shipping_signer_unavailable",
            "prepare with the signer off",
          );
          ensure(e.retryable === true, "shipping_signer_unavailable must be retryable");
        } finally {
          await ctx.control!.request("POST", "/mystery/shipping-signer", { enabled: true });
        }
        ensure(
          prepared(await prepare(ctx, b, "conformance-signer"), "the retry").status === "PREPARED",
          "the retry with the same key opens the redemption",
        );
      });
    },
  },
  {
    ...operated("operator", "switches KYC on for the partner and cancels a redemption"),
    id: "redemption.kyc-if-required",
    guards:
      "docs/reference/api-rules.md “Mystery commerce endpoints” (prepare returns kyc.kyc_url if required); docs/reference/live-service.md “Redemption” (no KYC)",
    title:
      "KYC only if required: off by default (calls at once); a partner switched to KYC gets kyc PENDING with kyc_url and no calls",
    rule: "Redemption KYC is a per-partner requirement, off by default as on the live service: prepare answers PREPARED (kyc NOT_REQUIRED) unless the partner requires KYC, then PREPARED with kyc.status PENDING, kyc.kyc_url and no calls (the status stays within the SDK's lifecycle).",
    deviation: "redemption_kyc_always",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const free = prepared(await prepare(ctx, b, "conformance-kyc-off"), "prepare (KYC off)");
        ensure(
          free.status === "PREPARED" && free.kyc?.status === "NOT_REQUIRED",
          `KYC off by default: PREPARED / NOT_REQUIRED expected, got ${free.status} / ${free.kyc?.status}`,
        );
        await ctx.control!.request("POST", `/mystery/redemptions/${free.redemption_id}/cancel`, {});
        await ctx.control!.request("POST", "/mystery/kyc", { key: ctx.partnerKey, required: true });
        const gated = prepared(await prepare(ctx, b, "conformance-kyc-on"), "prepare (KYC on)");
        ensure(
          gated.status === "PREPARED" && gated.kyc?.status === "PENDING" && gated.unsigned === null,
          `KYC on: PREPARED / PENDING without calls expected, got ${gated.status} / ${gated.kyc?.status}`,
        );
        ensure(typeof gated.kyc?.kyc_url === "string", "KYC on: kyc.kyc_url to send the end user to");
      });
    },
  },
  {
    ...chained,
    id: "redemption.carrier-names",
    guards:
      "docs/reference/sdk-shapes.md “Redemption shapes” RedemptionShippingQuote (carrier, service, service_token)",
    title: "Shipping quote: carrier and service each as themselves (no “USPS USPS …”)",
    rule: "shipping_quote.carrier names the carrier, shipping_quote.service the service level without repeating the carrier, service_token the Shippo token.",
    deviation: "redemption_service_repeats_carrier",
    async run(ctx) {
      await withCard(ctx, async (b) => {
        const q = (
          expectSuccess(
            await ctx.http.post(`${M}/redemption/quote`, {
              key: ctx.partnerKey,
              body: { token_id: b.card, shipping_address: US },
            }),
            "quote",
          ).data as {
            shipping_quote: { carrier: string; service: string; service_token: string };
          }
        ).shipping_quote;
        ensure(q.carrier && q.service && q.service_token, "carrier, service and service_token are set");
        ensure(
          !q.service.toLowerCase().startsWith(q.carrier.toLowerCase()),
          `service "${q.service}" repeats the carrier "${q.carrier}"`,
        );
      });
    },
  },
];

/** The redemption scenarios as lifecycle checks (conformance/checks/lifecycle.ts runs them). */
export const REDEMPTION_LIFECYCLES = {
  "mystery-redemption": {
    emulatorOnly: { power: "clock" as const, what: "advances hours through the warehouse's fulfilment steps" },
    profile: "mystery" as const,
    rule: "A redemption whose holder sent burn, approve and the shipping payment goes BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED (polled by token id), burned at dispatch.",
    guards:
      "docs/reference/sdk-shapes.md “Redemption methods” and “Polling” (waitForCompletion); docs/reference/live-service.md “Redemption”",
    deviation: "lifecycle_redemption_stuck_unshipped",
  },
  "mystery-redemption-kyc": {
    emulatorOnly: {
      power: "operator" as const,
      what: "decides the end user's KYC and advances hours through fulfilment",
    },
    profile: "mystery" as const,
    rule: "A KYC-approved redemption goes PREPARED → BURN_SUBMITTED → IN_FULFILLMENT → COMPLETED, burned at dispatch.",
    guards:
      "docs/reference/api-rules.md “Mystery commerce endpoints” (KYC if required); docs/reference/live-service.md “Redemption” (redemption, burn on dispatch)",
    deviation: "lifecycle_redemption_never_completed",
  },
};
