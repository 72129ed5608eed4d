import { vrfRequestIdsFromLogs } from "../../chain/index.ts";
import type { HttpResult } from "../../harness/http.ts";
import { endUserWallet, type Call } from "../../scenarios/mystery.ts";
import type { TransactionReceipt } from "viem";
import { cheapestFirst, ensure, expectError, expectSuccess, spendMicros, usdcMicros } from "../assert.ts";
import { sameAcrossReads } from "../progress.ts";
import { INSTANT_PURCHASE } from "../../contract/lifecycles/purchases.ts";
import { emulatorOnly, NotApplicable, type Check, type CheckContext } from "../types.ts";
import { chainMissing, rpcMissing } from "./target.ts";
import { isolatedCheck, scenarioContext } from "../isolate.ts";

// Checks of instant packs (docs/reference/sdk-shapes.md “Instant pack methods” and
// “Instant shapes”; docs/reference/live-service.md “Instant packs”). Read-only ones call the catalog, prepare (creates nothing) and submit
// with a transaction no server can record. Those that need a mined purchase buy
// one: in emulator mode with a fixture wallet over the emulator's JSON-RPC,
// between a snapshot and its restore; elsewhere with the partner's test wallet. Each check names the deviation
// (testing/deviations/instant.ts) that breaks it.

const I = "/api/v1/instant";
/** A wallet no one signs with: prepare only encodes calldata for it. */
const NOBODY = "0x000000000000000000000000000000000000dEaD";

interface Pack {
  packet_type_id: number;
  price: string;
  price_usdc: string;
  available_packs: number;
}
interface Prepared {
  payment_token: string;
  contract: string;
  packet_type_id: number;
  price: string;
  calls: Array<Call & { description?: string }>;
}

/** An emulator without its chain (--no-chain) has no store to read: not applicable, in any mode. */
function chainOr(r: HttpResult): HttpResult {
  if (r.status === 503 && (r.body as { error?: string } | null)?.error === "chain_unavailable")
    throw new NotApplicable("instant packs need the chain, and the target runs without one (503 chain_unavailable)");
  return r;
}

async function catalog(ctx: CheckContext, includeUnavailable: boolean): Promise<Pack[]> {
  const r = chainOr(
    await ctx.http.get(`${I}/catalog`, {
      key: ctx.partnerKey,
      ...(includeUnavailable ? { query: { include_unavailable: "1" } } : {}),
    }),
  );
  return (
    expectSuccess(r, `GET /instant/catalog${includeUnavailable ? "?include_unavailable=1" : ""}`).data as {
      packs: Pack[];
    }
  ).packs;
}

async function packInStock(ctx: CheckContext): Promise<Pack> {
  const pack = (await catalog(ctx, false)).find((p) => p.available_packs > 0);
  if (!pack) throw new NotApplicable("no instant pack is in stock on the target");
  return pack;
}

/** The most a check's instant pack may cost. */
const INSTANT_USDC = 10;

interface Mined {
  wallet: { address: string };
  packetTypeId: number;
  hash: string;
  requestId: string;
}

/**
 * Runs `body` with a mined (not yet submitted) instant purchase: of a fixture wallet on a manual clock, the
 * state restored after (emulator mode); else of the test wallet, the cheapest pack in stock.
 */
async function withMinedPurchase(ctx: CheckContext, body: (m: Mined) => Promise<void>): Promise<void> {
  if (!ctx.control) {
    ensure(ctx.wallet, "no test wallet");
    const w = ctx.wallet;
    return mine(ctx, { address: w.address, send: (calls) => w.send(calls) }, body);
  }
  await isolatedCheck(ctx, async () => mine(ctx, await endUserWallet(scenarioContext(ctx), 6), body));
}

async function mine(
  ctx: CheckContext,
  wallet: { address: string; send(calls: Call[]): Promise<TransactionReceipt> },
  body: (m: Mined) => Promise<void>,
): Promise<void> {
  {
    const packs = (await catalog(ctx, false))
      .filter((p) => p.available_packs > 0)
      .sort(cheapestFirst((p) => p.price_usdc));
    const pack = packs[0];
    if (!pack) throw new NotApplicable("no instant pack is in stock on the target");
    if (usdcMicros(pack.price_usdc) > spendMicros(INSTANT_USDC))
      throw new NotApplicable(
        `the cheapest instant pack costs ${pack.price_usdc} USDC, more than the check's declared spend of ${INSTANT_USDC}`,
      );
    const r = await ctx.http.post(`${I}/purchase/prepare`, {
      key: ctx.partnerKey,
      body: { packet_type_id: pack.packet_type_id, wallet_address: wallet.address },
    });
    const prep = expectSuccess(r, "prepare").data as Prepared;
    const receipt = await wallet.send(prep.calls);
    const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
    await body({
      wallet,
      packetTypeId: pack.packet_type_id,
      hash: receipt.transactionHash,
      requestId: String(requestId),
    });
  }
}

type Row = Record<string, unknown>;

const submit = (ctx: CheckContext, body: Record<string, unknown>) =>
  ctx.http.post(`${I}/purchase/submit`, { key: ctx.partnerKey, body });

const base = { profile: "mystery" as const, credits: 0, needs: ["partnerKey"] as const };
const readOnly = { ...base, mode: "read-only" as const, applicable: chainMissing };
/** Mines an instant purchase with the test wallet (sandbox) or a fixture wallet (emulator). */
const chained = {
  ...base,
  mode: "sandbox" as const,
  needs: ["partnerKey", "wallet"] as const,
  spendUsdc: INSTANT_USDC,
  applicable: rpcMissing,
};

/** The instant scenario as a lifecycle check (conformance/checks/lifecycle.ts). */
export const INSTANT_LIFECYCLES = {
  instant: {
    profile: "mystery" as const,
    rule: "An instant pack bought and opened on chain (prepare → wallet signs → submit) reads FULFILLED with its pack and cards once VRF drew its bundle; a pack whose stock runs down is 409 sold_out and leaves the catalog.",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” and “Polling” (waitForDelivery: FULFILLED); docs/reference/live-service.md “Instant packs”",
    deviation: "lifecycle_instant_never_fulfilled",
  },
  "instant-custodial": {
    emulatorOnly: {
      power: "operator" as const,
      what: "credits an end user's custodial USDC balance and reads the event log",
    },
    profile: "mystery" as const,
    rule: "A custodial instant purchase is RESERVED with no on-chain fields, relayed on chain for the end user's custodial wallet (SUBMITTED with its hash) and FULFILLED with its cards once drawn; each step publishes its instant_purchase.* event.",
    guards:
      "docs/reference/sdk-shapes.md “Instant shapes” (CUSTODIAL custody, RESERVED status) and “Webhook event data” (instant_purchase.reserved / submitted / fulfilled); docs/reference/live-service.md “Webhooks” (21 live event types)",
    deviation: "lifecycle_instant_custodial_never_relayed",
  },
};

export const instantChecks: Check[] = [
  {
    ...readOnly,
    id: "instant.catalog-availability",
    guards:
      "docs/reference/live-service.md “Instant packs” (catalog: default only available_packs > 0; include_unavailable); docs/reference/sdk-shapes.md “Instant shapes” InstantCatalogItem",
    title: "Instant catalog lists packs in stock; include_unavailable=1 adds the sold-out ones",
    rule: "GET /instant/catalog lists only packs with available_packs > 0; with include_unavailable=1 it lists those and any sold-out packs too; price is integer micros matching price_usdc.",
    deviation: "instant_catalog_lists_sold_out",
    async run(ctx) {
      const def = await catalog(ctx, false);
      const all = await catalog(ctx, true);
      for (const p of def) {
        ensure(
          p.available_packs > 0,
          `packet type ${p.packet_type_id} is listed with available_packs ${p.available_packs} without include_unavailable`,
        );
        ensure(
          /^\d+$/.test(p.price) && /^\d+\.\d{6}$/.test(p.price_usdc) && usdcMicros(p.price_usdc) === BigInt(p.price),
          `price ${p.price} and price_usdc ${p.price_usdc} must agree`,
        );
      }
      const ids = new Set(all.map((p) => p.packet_type_id));
      ensure(
        def.every((p) => ids.has(p.packet_type_id)),
        "include_unavailable=1 must list every pack of the default listing",
      );
      ensure(
        all.filter((p) => p.available_packs > 0).length === def.length,
        "the packs in stock must be the same with and without include_unavailable",
      );
    },
  },
  {
    ...readOnly,
    id: "instant.prepare-calls",
    guards:
      "docs/reference/sdk-shapes.md “Instant shapes” InstantUnsignedCall, InstantPrepareResult; docs/reference/live-service.md “Instant packs”",
    title: "Instant prepare answers approve then purchaseInstantOpenFor, without kind",
    rule: "prepare answers the pack's price (micros and usdc) and exactly two calls without `kind`: calls[0] to payment_token (the approve), calls[1] to contract (buy and open).",
    deviation: "instant_prepare_calls_kinded",
    async run(ctx) {
      const pack = await packInStock(ctx);
      const r = await ctx.http.post(`${I}/purchase/prepare`, {
        key: ctx.partnerKey,
        body: { packet_type_id: pack.packet_type_id, wallet_address: NOBODY },
      });
      const p = expectSuccess(r, "prepare").data as Prepared;
      ensure(
        p.packet_type_id === pack.packet_type_id && p.price === pack.price,
        `prepare answers packet type ${p.packet_type_id} at ${p.price}, the catalog ${pack.packet_type_id} at ${pack.price}`,
      );
      ensure(p.calls.length === 2, `two calls expected, got ${p.calls.length}`);
      ensure(
        p.calls.every((c) => !("kind" in c)),
        "instant calls carry no kind (position decides)",
      );
      ensure(
        p.calls[0]!.to.toLowerCase() === p.payment_token.toLowerCase(),
        "calls[0] is the approve to payment_token",
      );
      ensure(p.calls[1]!.to.toLowerCase() === p.contract.toLowerCase(), "calls[1] is the buy-and-open on contract");
    },
  },
  {
    ...readOnly,
    id: "instant.max-price",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” (409 max_price_exceeded); docs/reference/sdk-shapes.md “Instant shapes” InstantPrepareParams",
    title: "Instant prepare with max_price_usdc below the price → 409 max_price_exceeded",
    rule: "prepare with a max_price_usdc under the pack's price is 409 max_price_exceeded.",
    deviation: "instant_max_price_ignored",
    async run(ctx) {
      const pack = await packInStock(ctx);
      const r = await ctx.http.post(`${I}/purchase/prepare`, {
        key: ctx.partnerKey,
        body: { packet_type_id: pack.packet_type_id, wallet_address: NOBODY, max_price_usdc: "0.000001" },
      });
      expectError(r, 409, "max_price_exceeded", "prepare with max_price_usdc 0.000001");
    },
  },
  {
    ...readOnly,
    id: "instant.sold-out",
    guards: "docs/reference/sdk-shapes.md “Instant shapes” InstantCatalogItem (available_packs 0 → 409 sold_out)",
    title: "Instant prepare of a sold-out pack → 409 sold_out",
    rule: "prepare of a pack with available_packs 0 is 409 sold_out.",
    deviation: "instant_sold_out_sold",
    async run(ctx) {
      const gone = (await catalog(ctx, true)).find((p) => p.available_packs === 0);
      if (!gone) throw new NotApplicable("no sold-out instant pack on the target");
      const r = await ctx.http.post(`${I}/purchase/prepare`, {
        key: ctx.partnerKey,
        body: { packet_type_id: gone.packet_type_id, wallet_address: NOBODY },
      });
      expectError(r, 409, "sold_out", `prepare of sold-out packet type ${gone.packet_type_id}`);
    },
  },
  {
    ...base,
    ...emulatorOnly("operator", "switches instant packs off and on again", ["partnerKey"]),
    applicable: chainMissing,
    id: "instant.disabled",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” (503 instant_disabled); docs/reference/live-service.md “Partner error codes” (503 codes)",
    title: "Instant packs switched off → prepare 503 instant_disabled (retryable)",
    rule: "While an operator has instant packs off, prepare answers 503 instant_disabled with retryable true and Retry-After.",
    deviation: "instant_disabled_500",
    async run(ctx) {
      const control = ctx.control!;
      const pack = await packInStock(ctx);
      await control.request("POST", "/instant/enabled", { enabled: false });
      try {
        const r = await ctx.http.post(`${I}/purchase/prepare`, {
          key: ctx.partnerKey,
          body: { packet_type_id: pack.packet_type_id, wallet_address: NOBODY },
        });
        const body = expectError(r, 503, "instant_disabled", "prepare while instant packs are off");
        ensure(body.retryable === true, "instant_disabled must be retryable");
        ensure(r.headers["retry-after"] !== undefined, "instant_disabled must carry Retry-After");
      } finally {
        await control.request("POST", "/instant/enabled", { enabled: true });
      }
    },
  },
  {
    ...readOnly,
    id: "instant.submit-missing-hash",
    guards: "docs/reference/sdk-shapes.md “Instant pack methods” (400 missing_tx_hash)",
    title: "Instant submit without transaction_hash → 400 missing_tx_hash",
    rule: "submit without a transaction_hash is 400 missing_tx_hash.",
    deviation: "instant_missing_hash_generic",
    async run(ctx) {
      expectError(await submit(ctx, { packet_type_id: 1 }), 400, "missing_tx_hash", "submit without transaction_hash");
    },
  },
  {
    ...readOnly,
    id: "instant.submit-unknown-tx",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” (400 tx_unverified); docs/reference/live-service.md “Instant packs” (read from the receipt)",
    title: "Instant submit of a transaction the chain does not know → 400 tx_unverified",
    rule: "submit is verified against the mined receipt: a hash with no transaction on chain is 400 tx_unverified, and nothing is recorded.",
    deviation: "instant_unknown_tx_accepted",
    async run(ctx) {
      const hash = `0x${"c0ffee".repeat(10)}abcd`;
      expectError(
        chainOr(await submit(ctx, { packet_type_id: 1, transaction_hash: hash })),
        400,
        "tx_unverified",
        "submit of an unknown hash",
      );
    },
  },
  {
    ...chained,
    id: "instant.submit-packet-type-mismatch",
    guards:
      "docs/reference/sdk-shapes.md “Instant shapes” InstantSubmitParams (packet_type_id checked against the receipt)",
    title: "Instant submit naming another packet type than the receipt → 400 packet_type_mismatch",
    rule: "submit's packet_type_id is checked against the mined receipt: another one is 400 packet_type_mismatch.",
    deviation: "instant_packet_type_unchecked",
    async run(ctx) {
      await withMinedPurchase(ctx, async (m) => {
        expectError(
          await submit(ctx, { packet_type_id: m.packetTypeId + 1000, transaction_hash: m.hash }),
          400,
          "packet_type_mismatch",
          "submit with another packet type",
        );
      });
    },
  },
  {
    ...chained,
    id: "instant.submit-purchaser-mismatch",
    guards: "docs/reference/sdk-shapes.md “Instant pack methods” (400 purchaser_mismatch)",
    title: "Instant submit naming another wallet than the receipt's purchaser → 400 purchaser_mismatch",
    rule: "submit's wallet_address, when sent, must be the purchaser of the mined transaction; another one is 400 purchaser_mismatch.",
    deviation: "instant_purchaser_unchecked",
    async run(ctx) {
      await withMinedPurchase(ctx, async (m) => {
        expectError(
          await submit(ctx, { packet_type_id: m.packetTypeId, transaction_hash: m.hash, wallet_address: NOBODY }),
          400,
          "purchaser_mismatch",
          "submit with another wallet",
        );
      });
    },
  },
  {
    ...chained,
    id: "instant.submit-idempotent",
    guards: "docs/reference/live-service.md “Instant packs” (submit idempotent on the hash) and “Idempotency”",
    title: "Instant submit of the same transaction twice answers one purchase",
    rule: "submit is 202 SUBMITTED (or later) with the receipt's request id; submitting the same hash again answers the same purchase.",
    deviation: "instant_submit_duplicates",
    async run(ctx) {
      await withMinedPurchase(ctx, async (m) => {
        const body = {
          packet_type_id: m.packetTypeId,
          transaction_hash: m.hash,
          request_id: m.requestId,
          wallet_address: m.wallet.address,
        };
        const first = expectSuccess(await submit(ctx, body), "submit", 202).data as {
          id: number;
          status: string;
          onchain_request_id: string;
        };
        ensure(first.status === "SUBMITTED" || first.status === "FULFILLED", `submit answers ${first.status}`);
        ensure(
          first.onchain_request_id === m.requestId,
          `onchain_request_id ${first.onchain_request_id} must be the receipt's VRF request ${m.requestId}`,
        );
        const again = expectSuccess(await submit(ctx, body), "submit again", 202).data as { id: number };
        ensure(again.id === first.id, `the same hash answered purchases ${first.id} and ${again.id}`);
      });
    },
  },
  {
    ...chained,
    id: "instant.by-id-equals-listed",
    guards: "docs/reference/sdk-shapes.md “Instant pack methods” (getPurchase, listPurchases)",
    title: "An instant purchase fetched by id equals the same purchase listed, field by field",
    rule:
      "One resource, many routes: GET /instant/purchase/{id} answers the same fields and values " +
      "(price in micros) as the purchase's row in GET /instant/purchases.",
    deviation: "instant_purchase_by_id_price_scaled",
    async run(ctx) {
      await withMinedPurchase(ctx, async (m) => {
        const body = { packet_type_id: m.packetTypeId, transaction_hash: m.hash, request_id: m.requestId };
        const sub = await submit(ctx, { ...body, wallet_address: m.wallet.address });
        const { id } = expectSuccess(sub, "submit", 202).data as { id: number };
        const byId = async () => {
          const one = await ctx.http.get(`${I}/purchase/${id}`, { key: ctx.partnerKey });
          return expectSuccess(one, `GET /instant/purchase/${id}`).data as Row;
        };
        const listed = async () => {
          const list = await ctx.http.get(`${I}/purchases`, { key: ctx.partnerKey, query: { limit: "100" } });
          const rows = (expectSuccess(list, "GET /instant/purchases").data as { purchases: Row[] }).purchases;
          const row = rows.find((p) => p.id === id);
          ensure(row, `instant purchase ${id} missing from GET /instant/purchases`);
          return row;
        };
        // The VRF may answer between the two reads: the purchase moves on (SUBMITTED → FULFILLED).
        await sameAcrossReads(INSTANT_PURCHASE, { byId, listed }, `instant purchase ${id}`);
      });
    },
  },
  {
    ...readOnly,
    id: "instant.list-invalid-status",
    guards:
      "docs/reference/sdk-shapes.md “Instant pack methods” (400 invalid_status); docs/reference/sdk-shapes.md “Instant shapes” InstantPurchaseStatus",
    title: "Instant purchases filtered by an unknown status → 400 invalid_status",
    rule: "GET /instant/purchases?status= takes the seven instant statuses (case-insensitive); anything else (PARTIALLY_FULFILLED included: mystery only) is 400 invalid_status.",
    deviation: "instant_status_filter_unchecked",
    async run(ctx) {
      expectError(
        await ctx.http.get(`${I}/purchases`, { key: ctx.partnerKey, query: { status: "PARTIALLY_FULFILLED" } }),
        400,
        "invalid_status",
        "status=PARTIALLY_FULFILLED",
      );
      expectSuccess(
        await ctx.http.get(`${I}/purchases`, { key: ctx.partnerKey, query: { status: "fulfilled" } }),
        "status=fulfilled",
      );
    },
  },
  {
    ...readOnly,
    id: "instant.get-not-found",
    guards: "docs/reference/sdk-shapes.md “Instant pack methods” (getPurchase: 404 not_found)",
    title: "Instant purchase that is not the partner's → 404 not_found",
    rule: "GET /instant/purchase/{id} of an id the partner has no purchase under is 404 not_found.",
    deviation: "instant_get_unknown_500",
    async run(ctx) {
      expectError(
        await ctx.http.get(`${I}/purchase/987654321`, { key: ctx.partnerKey }),
        404,
        "not_found",
        "GET /instant/purchase/987654321",
      );
    },
  },
  {
    ...chained,
    needs: ["partnerKey", "wallet", "revenueShareKey"],
    id: "instant.tx-already-recorded",
    guards: "docs/reference/sdk-shapes.md “Instant pack methods” (409 tx_already_recorded)",
    title: "Instant submit of a transaction another partner recorded → 409 tx_already_recorded",
    rule: "A mined instant purchase is recorded for one partner: the same hash submitted with another partner's key is 409 tx_already_recorded.",
    deviation: "instant_tx_recorded_twice",
    async run(ctx) {
      await withMinedPurchase(ctx, async (m) => {
        expectSuccess(await submit(ctx, { packet_type_id: m.packetTypeId, transaction_hash: m.hash }), "submit", 202);
        // Another partner: the TIER key's account (the emulator makes a fresh one).
        ensure(ctx.revenueShareKey, "no TIER key");
        const other = ctx.revenueShareKey;
        const r = await ctx.http.post(`${I}/purchase/submit`, {
          key: other,
          body: { packet_type_id: m.packetTypeId, transaction_hash: m.hash },
        });
        expectError(r, 409, "tx_already_recorded", "the same hash with another partner's key");
      });
    },
  },
  {
    ...chained,
    id: "instant.revenue-counted",
    guards:
      "docs/reference/live-service.md “Revenue share” (revenue: by_product.instant, instant_packs; 1 % of instant gross on TIER)",
    title: "A submitted instant pack counts in the partner's revenue summary",
    rule: "Once an instant purchase is SUBMITTED, GET /mystery/revenue counts it: instant_packs and by_product.instant.packs + 1, by_product.instant.gross_usdc + its price, instant share = 1 % of gross on TIER (0 on POOL).",
    deviation: "instant_revenue_uncounted",
    async run(ctx) {
      type Rev = {
        billing_model: string;
        instant_packs: number;
        by_product: { instant: { packs: number; gross_usdc: string; share_bps: number; share_usdc: string } };
      };
      const revenue = async () =>
        expectSuccess(await ctx.http.get("/api/v1/mystery/revenue", { key: ctx.partnerKey }), "GET /mystery/revenue")
          .data as Rev;
      await withMinedPurchase(ctx, async (m) => {
        const before = await revenue();
        const p = expectSuccess(
          await submit(ctx, { packet_type_id: m.packetTypeId, transaction_hash: m.hash }),
          "submit",
          202,
        ).data as { price: string };
        const after = await revenue();
        const micros = (v: string) => BigInt(v.replace(".", ""));
        // The two reads are taken at different moments: on a live target another of the partner's instant sales
        // (a custodial one the relayer submits) may be counted between them, never one fewer. Exact when only ours was.
        const grew = after.instant_packs - before.instant_packs;
        ensure(
          grew >= 1 && after.by_product.instant.packs - before.by_product.instant.packs === grew,
          `instant_packs ${before.instant_packs} → ${after.instant_packs} (by_product.instant.packs ${before.by_product.instant.packs} → ${after.by_product.instant.packs}) after one instant sale`,
        );
        const gross = micros(after.by_product.instant.gross_usdc) - micros(before.by_product.instant.gross_usdc);
        ensure(
          grew === 1 ? gross === BigInt(p.price) : gross >= BigInt(p.price),
          `by_product.instant.gross grew by ${gross} micros over ${grew} sale(s), the pack cost ${p.price}`,
        );
        if (grew > 1) ctx.note(`${grew - 1} other instant sale(s) of the partner were counted between the reads`);
        const bps = after.billing_model === "TIER" ? 100 : 0;
        ensure(
          after.by_product.instant.share_bps === bps,
          `instant share_bps ${after.by_product.instant.share_bps}, expected ${bps} on ${after.billing_model}`,
        );
        ensure(
          micros(after.by_product.instant.share_usdc) ===
            (micros(after.by_product.instant.gross_usdc) * BigInt(bps)) / 10_000n,
          `instant share ${after.by_product.instant.share_usdc} is not ${bps} bps of ${after.by_product.instant.gross_usdc}`,
        );
      });
    },
  },
];
