import { dataOf, errorIs, is, toSuccess, type Deviation, type Exchange } from "./deviation.ts";

// Deviations that break the instant area's rules, one per conformance check
// (conformance/checks/instant.ts): each rewrites only /api/v1/instant answers.

const I = "/api/v1/instant";
const on = (x: Exchange) => x.url.pathname.startsWith(`${I}/`);
type Row = Record<string, unknown>;

export const instantDeviations: readonly Deviation[] = [
  {
    name: "instant_catalog_lists_sold_out",
    breaks: "the catalog lists only packs with available_packs > 0 unless include_unavailable=1",
    apply: (x) => {
      const packs = dataOf(x)?.packs as Row[] | undefined;
      if (
        !is(x, "GET", /^\/api\/v1\/instant\/catalog$/) ||
        x.status !== 200 ||
        !packs?.length ||
        x.url.searchParams.has("include_unavailable")
      )
        return;
      packs.push({ ...packs[0]!, packet_type_id: 999_999, available_packs: 0 });
    },
  },
  {
    name: "instant_prepare_calls_kinded",
    breaks: "prepare's calls have no kind: [0] approves payment_token, [1] buys and opens on contract",
    apply: (x) => {
      const d = dataOf(x);
      if (
        !is(x, "POST", /^\/api\/v1\/instant\/purchase\/prepare$/) ||
        x.status !== 200 ||
        !d ||
        !Array.isArray(d.calls)
      )
        return;
      d.calls = (d.calls as Row[]).map((c, i) => ({ kind: i === 0 ? "erc20-approve" : "purchase", ...c })).reverse();
    },
  },
  {
    name: "instant_max_price_ignored",
    breaks: "prepare with max_price_usdc below the price is 409 max_price_exceeded",
    apply: (x) => {
      if (on(x) && errorIs(x, 409, "max_price_exceeded")) toSuccess(x, { calls: [] });
    },
  },
  {
    name: "instant_sold_out_sold",
    breaks: "prepare of a sold-out pack is 409 sold_out",
    apply: (x) => {
      if (on(x) && errorIs(x, 409, "sold_out")) toSuccess(x, { calls: [] });
    },
  },
  {
    name: "instant_disabled_500",
    breaks: "while an operator has instant packs off, prepare is 503 instant_disabled (retryable)",
    apply: (x) => {
      if (!on(x) || !errorIs(x, 503, "instant_disabled")) return;
      x.status = 500;
      x.body = { success: false, error: "internal_error", message: "Internal error" };
      x.headers.delete("retry-after");
    },
  },
  {
    name: "instant_missing_hash_generic",
    breaks: "submit without transaction_hash is 400 missing_tx_hash",
    apply: (x) => {
      if (on(x) && errorIs(x, 400, "missing_tx_hash"))
        x.body = { success: false, error: "invalid_value", message: "transaction_hash: required" };
    },
  },
  {
    name: "instant_unknown_tx_accepted",
    breaks: "submit of a transaction the chain does not know is 400 tx_unverified",
    apply: (x) => {
      if (on(x) && errorIs(x, 400, "tx_unverified")) {
        x.status = 202;
        x.body = { success: true, data: { id: 0, status: "SUBMITTED" } };
      }
    },
  },
  {
    name: "instant_packet_type_unchecked",
    breaks: "submit naming another packet type than the receipt's is 400 packet_type_mismatch",
    apply: (x) => {
      if (on(x) && errorIs(x, 400, "packet_type_mismatch")) {
        x.status = 202;
        x.body = { success: true, data: { id: 0, status: "SUBMITTED" } };
      }
    },
  },
  {
    name: "instant_purchaser_unchecked",
    breaks: "submit naming another wallet than the receipt's purchaser is 400 purchaser_mismatch",
    apply: (x) => {
      if (on(x) && errorIs(x, 400, "purchaser_mismatch")) {
        x.status = 202;
        x.body = { success: true, data: { id: 0, status: "SUBMITTED" } };
      }
    },
  },
  {
    name: "instant_submit_duplicates",
    breaks: "submitting the same transaction again answers the same purchase (one record)",
    apply: (x) => {
      const d = dataOf(x);
      // A server that records every submit anew: the answer carries a fresh id each time.
      if (!is(x, "POST", /^\/api\/v1\/instant\/purchase\/submit$/) || x.status !== 202 || typeof d?.id !== "number")
        return;
      d.id = d.id + 1_000_000 + Math.floor(Math.random() * 1_000_000);
    },
  },
  {
    name: "instant_status_filter_unchecked",
    breaks: "an unknown status filter on /instant/purchases is 400 invalid_status",
    apply: (x) => {
      if (on(x) && errorIs(x, 400, "invalid_status")) toSuccess(x, { purchases: [] });
    },
  },
  {
    name: "instant_purchase_by_id_price_scaled",
    breaks: "an instant purchase fetched by id carries its listed values (price in micros)",
    apply: (x) => {
      const d = dataOf(x);
      const hit = is(x, "GET", /^\/api\/v1\/instant\/purchase\/[^/]+$/) && x.status === 200;
      if (hit && typeof d?.price === "string" && /^\d+$/.test(d.price)) d.price = String(BigInt(d.price) * 1000n);
    },
  },
  {
    name: "instant_get_unknown_500",
    breaks: "an instant purchase that is not the partner's is 404 not_found",
    apply: (x) => {
      if (!is(x, "GET", /^\/api\/v1\/instant\/purchase\/[^/]+$/) || !errorIs(x, 404, "not_found")) return;
      x.status = 500;
      x.body = { success: false, error: "internal_error", message: "Internal error" };
    },
  },
  {
    name: "instant_tx_recorded_twice",
    breaks: "a hash recorded for one partner is 409 tx_already_recorded for another",
    apply: (x) => {
      if (on(x) && errorIs(x, 409, "tx_already_recorded")) {
        x.status = 202;
        x.body = { success: true, data: { id: 0, status: "SUBMITTED" } };
      }
    },
  },
  {
    name: "instant_revenue_uncounted",
    breaks: "instant sales count in /mystery/revenue (instant_packs, by_product.instant)",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", /^\/api\/v1\/mystery\/revenue$/) || x.status !== 200 || !d) return;
      // A server that never counts instant packs (the emulator before instant packs existed).
      d.instant_packs = 0;
      const byProduct = d.by_product as { instant?: Row } | undefined;
      if (byProduct?.instant)
        Object.assign(byProduct.instant, {
          packs: 0,
          gross_usdc: "0.000000",
          net_usdc: "0.000000",
          share_usdc: "0.000000",
        });
    },
  },
  {
    name: "lifecycle_instant_never_fulfilled",
    breaks: "an opened instant pack reads FULFILLED with its pack and cards",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", /^\/api\/v1\/instant\/purchase\/[^/]+$/) || x.status !== 200 || !d || d.status !== "FULFILLED")
        return;
      d.status = "SUBMITTED";
      delete d.pack;
      delete d.cards;
    },
  },
  {
    name: "lifecycle_instant_custodial_never_relayed",
    breaks: "a custodial instant purchase is relayed on chain (RESERVED → SUBMITTED with its hash)",
    apply: (x) => {
      const d = dataOf(x);
      if (
        !is(x, "GET", /^\/api\/v1\/instant\/purchase\/[^/]+$/) ||
        x.status !== 200 ||
        !d ||
        d.custody !== "CUSTODIAL" ||
        d.status !== "SUBMITTED"
      )
        return;
      Object.assign(d, { status: "RESERVED", transaction_hash: null, onchain_request_id: null, submitted_at: null });
    },
  },
];
