import { emulatorOnly, runs, type Check, type CheckContext } from "../types.ts";
import { CUSTODIAL_USDC, custodialReservedBySandbox, reservedAnswer } from "./custodial-sandbox.ts";
import { ensure, expectError, expectSuccess } from "../assert.ts";
import { chainMissing } from "./target.ts";
import { isolatedCheck, runUnique } from "../isolate.ts";
import { PURCHASE_STATUSES } from "../../contract/mystery/purchases.ts";

// Checks of the custodial purchase lifecycle as the live service runs it (SDK
// 0.1.2 gacha.purchase / listPurchases; docs/reference/live-service.md “Purchases”, “Partner error codes”): the 202 is
// RESERVED with the price held and on-chain fields null, every status the SDK
// types is a ?status= filter, and a paused relayer is 503 relayer_disabled
// (retryable) with nothing held. The lifecycles themselves are scenarios
// (scenarios/purchase-lifecycle.ts), run as lifecycle checks (PURCHASE_LIFECYCLES).

const M = "/api/v1/mystery";
/** Every status the wire types (the contract's list; the lifecycle table uses each). */
const STATUSES = PURCHASE_STATUSES;

const base = { profile: "mystery" as const, credits: 0 };

/** Runs `body` with a funded end user of the check's key, on a manual clock, and restores the state (and the relayer) after. */
async function withFundedUser(ctx: CheckContext, body: (user: string) => Promise<void>): Promise<void> {
  await isolatedCheck(ctx, async () => {
    const user = "conformance-custodial-user";
    await ctx.control!.request("POST", "/mystery/custodial/fund", {
      key: ctx.partnerKey,
      external_user_id: user,
      usdc: "100",
    });
    await body(user);
  });
}

const wallet = async (ctx: CheckContext, user: string) =>
  (
    expectSuccess(
      await ctx.http.get("/api/v1/wallet/balance", { key: ctx.partnerKey, query: { external_user_id: user } }),
      "wallet balance",
    ).data as { wallet: { balance: string; reserved: string } }
  ).wallet;

export const purchaseChecks: Check[] = [
  {
    ...base,
    id: "purchases.custodial-reserved",
    guards:
      "docs/reference/sdk-shapes.md “Mystery pack methods” (gacha.purchase → 202 Purchase, status RESERVED); docs/reference/live-service.md “Purchases” (202 RESERVED with credits held)",
    title: "Custodial purchase → 202 RESERVED, price held, on-chain fields null",
    rule: "POST /mystery/purchase answers 202 with status RESERVED and custody CUSTODIAL; the price is held on the end user's balance (reserved, not yet debited) and onchain_request_id, transaction_hash and submitted_at are null until the relayer sends it.",
    // Funded by the fund control action in emulator mode; elsewhere by a real deposit from the test wallet.
    ...runs("sandbox", ["partnerKey"]),
    sandboxNeeds: ["wallet"],
    spendUsdc: CUSTODIAL_USDC,
    deviation: "purchases_custodial_answers_submitted",
    applicable: chainMissing,
    async run(ctx) {
      if (!ctx.control) return custodialReservedBySandbox(ctx);
      await withFundedUser(ctx, async (user) => {
        const r = await ctx.http.post(`${M}/purchase`, {
          key: ctx.partnerKey,
          body: { tier_id: 1, external_user_id: user },
          headers: { "Idempotency-Key": "conformance-reserved-1" },
        });
        const p = reservedAnswer(r);
        const w = await wallet(ctx, user);
        ensure(
          w.balance === "100000000" && BigInt(w.reserved) === BigInt(p.price as string),
          `the price is held, not debited: ${JSON.stringify(w)}`,
        );
        // The ledger, newest first (docs/reference/live-service.md “Custodial wallet”): the hold, then the deposit.
        const ledger = expectSuccess(
          await ctx.http.get("/api/v1/wallet/ledger", { key: ctx.partnerKey, query: { external_user_id: user } }),
          "wallet ledger",
        ).data as { entries: Array<{ entry_type: string }> };
        const types = ledger.entries.map((e) => e.entry_type);
        ensure(
          types.join(",") === "HOLD,DEPOSIT_CREDIT",
          `the ledger lists the hold, then the deposit (newest first), got ${types.join(", ")}`,
        );
      });
    },
  },
  {
    ...base,
    id: "purchases.insufficient-funds",
    guards:
      "docs/reference/live-service.md “Partner error codes” (402 insufficient_funds) and “Purchases”; docs/reference/sdk-shapes.md “Mystery pack methods” (purchase: 402 insufficient_funds)",
    title: "Custodial purchase by an end user with nothing available → 402 insufficient_funds, nothing held",
    rule: "A custodial purchase whose end user's available balance is below the price is 402 insufficient_funds, and nothing is held.",
    // A new end user of this run: no balance, so no funding and no spend.
    ...runs("sandbox", ["partnerKey"]),
    deviation: "purchases_insufficient_funds_accepted",
    applicable: chainMissing,
    async run(ctx) {
      const user = runUnique("unfunded");
      const r = await ctx.http.post(`${M}/purchase`, {
        key: ctx.partnerKey,
        body: { tier_id: 1, external_user_id: user },
        headers: { "Idempotency-Key": runUnique("unfunded-key") },
      });
      expectError(r, 402, "insufficient_funds", "POST /mystery/purchase for an end user with no balance");
      const w = await wallet(ctx, user);
      ensure(w.reserved === "0" && w.balance === "0", `nothing may be held or debited: ${JSON.stringify(w)}`);
    },
  },
  {
    ...base,
    id: "purchases.status-filters",
    guards:
      "docs/reference/sdk-shapes.md “Purchase shapes” PurchaseStatus (8 values); docs/reference/sdk-shapes.md “Mystery pack methods” (listPurchases, 400 invalid_status)",
    title: "Every purchase status is a ?status= filter; an unknown one is 400 invalid_status",
    rule: "GET /mystery/purchases?status= takes PENDING, RESERVED, SUBMITTING, SUBMITTED, FULFILLED, PARTIALLY_FULFILLED, REFUNDED and FAILED (each lists only purchases in that status); anything else is 400 invalid_status.",
    mode: "read-only",
    needs: ["partnerKey"],
    deviation: "purchases_status_filter_narrow",
    async run(ctx) {
      for (const status of STATUSES) {
        const r = await ctx.http.get(`${M}/purchases`, { key: ctx.partnerKey, query: { status, limit: "100" } });
        const rows = (
          expectSuccess(r, `GET /mystery/purchases?status=${status}`).data as { purchases: Array<{ status: string }> }
        ).purchases;
        ensure(Array.isArray(rows), `status=${status}: data.purchases must be an array`);
        for (const row of rows) ensure(row.status === status, `status=${status} listed a ${row.status} purchase`);
      }
      expectError(
        await ctx.http.get(`${M}/purchases`, { key: ctx.partnerKey, query: { status: "DONE" } }),
        400,
        "invalid_status",
        "GET /mystery/purchases?status=DONE",
      );
    },
  },
  {
    ...base,
    id: "purchases.relayer-disabled",
    guards:
      "docs/reference/live-service.md “Partner error codes” and “Purchases” (503 relayer_disabled); docs/reference/sdk-shapes.md “Errors the SDK raises”–1.6 (503 retryable, Retry-After)",
    title: "Relayer paused → custodial purchase 503 relayer_disabled (retryable), nothing held",
    rule: "While the relayer is paused, POST /mystery/purchase is 503 relayer_disabled with retryable: true and a Retry-After header, and holds nothing on the end user's balance.",
    ...emulatorOnly("operator", "pauses the relayer", ["partnerKey"]),
    deviation: "purchases_relayer_off_accepted",
    applicable: chainMissing,
    async run(ctx) {
      await withFundedUser(ctx, async (user) => {
        await ctx.control!.request("POST", "/mystery/relayer", { enabled: false });
        const r = await ctx.http.post(`${M}/purchase`, {
          key: ctx.partnerKey,
          body: { tier_id: 1, external_user_id: user },
          headers: { "Idempotency-Key": "conformance-relayer-1" },
        });
        const b = expectError(r, 503, "relayer_disabled", "custodial purchase with the relayer paused") as {
          retryable?: unknown;
        };
        ensure(b.retryable === true, `relayer_disabled must say retryable: true, got ${r.text.slice(0, 200)}`);
        ensure(
          Number(r.headers["retry-after"]) > 0,
          `relayer_disabled must carry Retry-After, got ${JSON.stringify(r.headers["retry-after"] ?? null)}`,
        );
        const w = await wallet(ctx, user);
        ensure(w.reserved === "0" && w.balance === "100000000", `nothing may be held: ${JSON.stringify(w)}`);
      });
    },
  },
];

/** The purchase lifecycles (scenarios/purchase-lifecycle.ts) as lifecycle checks (conformance/checks/lifecycle.ts). */
export const PURCHASE_LIFECYCLES = {
  "mystery-custodial-lifecycle": {
    profile: "mystery" as const,
    rule: "A custodial purchase answered RESERVED goes SUBMITTING → SUBMITTED → FULFILLED on the clock (polled as the SDK's waitForReveal does), one webhook per step, the hold settled once.",
    guards:
      "docs/reference/sdk-shapes.md “Polling” (polling) and “Mystery pack methods”; docs/reference/live-service.md “Purchases” (202 RESERVED → relayer → SUBMITTED → FULFILLED)",
    deviation: "lifecycle_custodial_stuck_reserved",
  },
  "mystery-relayer-paused": {
    emulatorOnly: { power: "operator" as const, what: "pauses and resumes the relayer" },
    profile: "mystery" as const,
    rule: "A purchase held while the relayer is paused waits PENDING and is relayed to FULFILLED once the relayer is back.",
    guards:
      "docs/reference/sdk-shapes.md “Purchase shapes” PurchaseStatus (PENDING); docs/reference/live-service.md “Partner error codes” (relayer_disabled)",
    deviation: "lifecycle_pending_dropped",
  },
  "mystery-relayed-accept": {
    profile: "mystery" as const,
    rule: "accept/prepare hands the holder the offer's EIP-712 OfferRequest; the holder's signature of it is accepted and relayed.",
    guards:
      "docs/reference/live-service.md “Buyback offers and the pool wallet” (typed_data: primaryType OfferRequest, message fields); docs/reference/sdk-shapes.md “Buyback shapes” BuybackTypedData",
    deviation: "lifecycle_accept_receiver_acceptance",
  },
};
