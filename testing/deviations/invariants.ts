import { dataOf, is, type Deviation, type Exchange } from "./deviation.ts";
import { cents, centsText, usdc, usdcText } from "../../contract/invariants/read.ts";
import { isoOf } from "../../contract/time.ts";
import { instant } from "../../emulator/areas/instant/state.ts";

// One deviation per contract invariant (contract/invariants/), each breaking that invariant and no other
// rule the wire checks, so the suite's kill test (conformance/invariants.test.ts) shows each one caught.

const ok = (x: Exchange) => x.status === 200;
const plusMicro = (v: unknown) => (usdc(v) === null ? v : usdcText(usdc(v)! + 1n));
const plusCent = (v: unknown) => (cents(v) === null ? v : centsText(cents(v)! + 1n));
type Row = Record<string, unknown>;
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const WALLET_BALANCE = /^\/api\/v1\/wallet\/balance$/;
/** The wallet block of a balance answer. */
const walletOf = (x: Exchange): Row | null => (dataOf(x)?.wallet as Row | undefined) ?? null;
const PAYOUTS = /^\/api\/v1\/mystery\/payouts$/;
const INVOICES = /^\/api\/v1\/invoices(\/[^/]+)?$/;
const SEARCHES = /^\/api\/v1\/\w+\/(cards|sealed|expansions(\/[^/]+\/cards)?)$/;

/** A delivery body with `edit` applied to its parsed JSON (the body as sent when it is no JSON object). */
const editBody = (body: string, edit: (b: Row) => void): string => {
  try {
    const b = JSON.parse(body) as Row;
    if (b === null || typeof b !== "object") return body;
    edit(b);
    return JSON.stringify(b);
  } catch {
    return body;
  }
};
const dataRow = (b: Row): Row | null => (b.data && typeof b.data === "object" ? (b.data as Row) : null);

const ORDERS = /^\/api\/v1\/orders(\/\d+(\/cancel)?)?$/;
/** The orders of an order answer (create, get, cancel or list). */
const ordersOf = (x: Exchange): Row[] => {
  const d = dataOf(x);
  return !d ? [] : Array.isArray(d.orders) ? rows(d.orders) : "order_id" in d ? [d] : [];
};
const QUOTE = /^\/api\/v1\/shipping-quote$/;
const NEWEST_FIRST_LISTS = /^\/api\/v1\/(mystery\/purchases|instant\/purchases|wallet\/ledger|webhooks\/deliveries)$/;
const OFFERS = /^\/api\/v1\/mystery\/buyback(\/[^/]+(\/accept\/prepare)?)?$/;

const CARDS = /^\/api\/v1\/(cards(\/[^/]+)?|inventory)$/;
/** The cards of a card answer (get or list). */
const cardsOf = (x: Exchange): Row[] => {
  const d = dataOf(x);
  if (!d) return [];
  if ("unique_id" in d) return [d];
  if (d.card && typeof d.card === "object") return [d.card as Row];
  return rows(Object.values(d).find(Array.isArray));
};
const priced = (c: Row) => (c.pricing as Row | undefined)?.status === "priced";

/** The invoices of an invoice answer (get or list). */
const invoices = (x: Exchange): Row[] => {
  const d = dataOf(x);
  return !d ? [] : Array.isArray(d.invoices) ? rows(d.invoices) : [d];
};

export const invariantDeviations: readonly Deviation[] = [
  {
    name: "inv_usdc_twin_drift",
    invariant: "money.usdc-twins",
    breaks: "wallet balance_usdc one micro above its micros twin",
    apply: (x) => {
      const d = walletOf(x);
      if (is(x, "GET", WALLET_BALANCE) && ok(x) && d) d.balance_usdc = plusMicro(d.balance_usdc);
    },
  },
  {
    name: "inv_available_ignores_reserved",
    invariant: "wallet.available",
    breaks: "available is not balance − reserved (one micro more, its usdc twin kept in step)",
    apply: (x) => {
      const d = walletOf(x);
      if (!is(x, "GET", WALLET_BALANCE) || !ok(x) || !d || typeof d.available !== "string") return;
      d.available = String(BigInt(d.available) + 1n);
      d.available_usdc = plusMicro(d.available_usdc);
    },
  },
  {
    name: "inv_total_owed_without_open_period",
    invariant: "revenue.total-owed",
    breaks: "total_owed_usdc leaves out the open period's accruing payout (or is off by a micro when that is 0)",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", PAYOUTS) || !ok(x) || !d) return;
      const accruing = usdc((d.accruing as Row | null)?.payout_usdc) ?? 0n;
      d.total_owed_usdc = accruing === 0n ? plusMicro(d.total_owed_usdc) : d.outstanding_usdc;
    },
  },
  {
    name: "inv_statement_lines_do_not_add_up",
    invariant: "revenue.statement-adds-up",
    breaks: "a statement's by_product tier gross is a micro above what its gross_usdc adds up from",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", PAYOUTS) || !ok(x) || !d) return;
      for (const s of rows(d.payouts)) {
        const tier = (s.by_product as Row | undefined)?.tier as Row | undefined;
        if (tier) tier.gross_usdc = plusMicro(tier.gross_usdc);
      }
    },
  },
  {
    name: "inv_credit_split_off",
    invariant: "credits.balance-split",
    breaks: "purchased_credits one more than balance − free_credits",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/account\/usage$/) && ok(x) && d && typeof d.purchased_credits === "number")
        d.purchased_credits += 1;
    },
  },
  {
    name: "inv_invoice_line_amount_off",
    invariant: "warehouse.invoice-line-amount",
    breaks: "an invoice line's amount a cent above quantity × unit_amount (the total kept equal to the lines)",
    apply: (x) => {
      if (!is(x, "GET", INVOICES) || !ok(x)) return;
      for (const inv of invoices(x)) {
        const line = rows(inv.lines).find((l) => typeof l.quantity === "number" && l.quantity > 0);
        if (!line) continue;
        line.amount = plusCent(line.amount);
        inv.total = plusCent(inv.total);
      }
    },
  },
  {
    name: "inv_invoice_total_off",
    invariant: "warehouse.invoice-total",
    breaks: "an invoice's total a cent above the sum of its lines",
    apply: (x) => {
      if (is(x, "GET", INVOICES) && ok(x)) for (const inv of invoices(x)) inv.total = plusCent(inv.total);
    },
  },
  {
    name: "inv_ties_not_by_id",
    invariant: "catalog.ties-by-id",
    breaks: "rows with equal orderBy values come in descending id order",
    apply: (x) => {
      const field = x.url.searchParams.get("orderBy")?.trim().replace(/^-/, "");
      const d = x.body?.data;
      if (!is(x, "GET", SEARCHES) || !ok(x) || !field || field.includes(",") || !Array.isArray(d)) return;
      const out: unknown[] = [];
      let run: Row[] = [];
      const flush = () => out.push(...run.reverse());
      for (const row of d as Row[]) {
        if (run.length && JSON.stringify(run[0]![field]) !== JSON.stringify(row[field])) {
          flush();
          run = [];
        }
        run.push(row);
      }
      flush();
      x.body!.data = out;
    },
  },
  {
    name: "inv_printings_anchor_not_first",
    invariant: "catalog.printings-anchor-first",
    breaks: "printings listed with the anchor's language last",
    apply: (x) => {
      const d = x.body?.data;
      if (is(x, "GET", /\/cards\/[^/]+\/printings$/) && ok(x) && Array.isArray(d)) d.reverse();
    },
  },
  {
    name: "inv_candidates_not_by_confidence",
    invariant: "vision.candidates-by-confidence",
    breaks: "vision candidates listed worst first",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "POST", /^\/api\/v1\/vision\/identify$/) && ok(x) && Array.isArray(d?.candidates))
        d.candidates.reverse();
    },
  },
  {
    name: "inv_retry_after_in_ms",
    invariant: "pipeline.retry-after-seconds",
    breaks: "Retry-After in milliseconds on 429 and 503 overloaded",
    apply: (x) => {
      const ra = x.headers.get("Retry-After");
      const overloaded = x.status === 503 && x.body?.error === "overloaded";
      if ((x.status === 429 || overloaded) && ra && /^\d+$/.test(ra))
        x.headers.set("Retry-After", String(Number(ra) * 1000));
    },
  },
  {
    name: "inv_purchase_status_goes_back",
    invariant: "purchase.status-forward",
    breaks: "the instant purchases list shows a FULFILLED purchase as SUBMITTED",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/instant\/purchases$/) && ok(x) && d)
        for (const p of rows(d.purchases)) if (p.status === "FULFILLED") p.status = "SUBMITTED";
    },
  },
  {
    name: "inv_wallet_reads_back_other",
    invariant: "wallet.put-then-get",
    breaks: "GET pool-wallet reads back an address other than the one PUT set",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "GET", /^\/api\/v1\/mystery\/pool-wallet$/) && ok(x) && d)
        d.address = "0x000000000000000000000000000000000000dEaD";
    },
  },
  {
    name: "inv_delivery_body_id_not_header",
    invariant: "delivery.headers-name-the-body",
    breaks: "a delivery's body id is another event id of the same form than its X-Mystery-Delivery (signed as sent)",
    apply: () => {},
    deliveryBody: (body) =>
      editBody(body, (b) => {
        if (typeof b.id === "string") b.id = `${b.id}x`;
      }),
  },
  {
    name: "inv_delivery_signature_wrong",
    invariant: "delivery.signature-verifies",
    breaks: "a delivery's sha256 is well-formed but one hex digit off the HMAC of <t>.<raw body>",
    apply: () => {},
    deliveryHeaders: (h) => {
      const sig = h["X-Mystery-Signature"];
      if (sig) h["X-Mystery-Signature"] = sig.slice(0, -1) + (sig.endsWith("0") ? "1" : "0");
    },
  },
  {
    name: "inv_delivery_payload_shape",
    invariant: "delivery.payload-shape",
    breaks: "a delivery's data.purchase_id is a string, not the event's integer (signed as sent)",
    apply: () => {},
    deliveryBody: (body) =>
      editBody(body, (b) => {
        const d = dataRow(b);
        if (d && typeof d.purchase_id === "number") d.purchase_id = String(d.purchase_id);
      }),
  },
  {
    name: "inv_delivery_retry_changes_body",
    invariant: "delivery.retries-same-body",
    breaks:
      "a retry of a delivery carries other data than its first attempt (purchase_id + attempt − 1; signed as sent)",
    apply: () => {},
    deliveryBody: (body, attempt) =>
      attempt < 2
        ? body
        : editBody(body, (b) => {
            const d = dataRow(b);
            if (d && typeof d.purchase_id === "number") d.purchase_id += attempt - 1;
          }),
  },
  {
    name: "inv_ship_by_cutoff_as_utc",
    invariant: "warehouse.deadline-central-cutoff",
    breaks: "an order's ship_by_at is 17:00 UTC of its day, the Central cut-off labelled as UTC",
    apply: (x) => {
      if (!ORDERS.test(x.url.pathname) || x.status >= 300) return;
      for (const o of ordersOf(x))
        if (typeof o.ship_by_at === "string") o.ship_by_at = `${o.ship_by_at.slice(0, 10)}T17:00:00.000Z`;
    },
  },
  {
    name: "inv_labelled_order_without_tracking",
    invariant: "warehouse.order-status-fields",
    breaks: "an order past its label purchase shows tracking_number null",
    apply: (x) => {
      if (!ORDERS.test(x.url.pathname) || x.status >= 300) return;
      for (const o of ordersOf(x))
        if (["LABEL_PURCHASED", "SHIPPED", "DELIVERED", "RETURNED"].includes(String(o.status)))
          o.tracking_number = null;
    },
  },
  {
    name: "inv_quote_superseded_id_not_newest",
    invariant: "warehouse.quote-superseded",
    breaks: "a quote that superseded others names none of them as superseded_order_id (null)",
    apply: (x) => {
      const d = dataOf(x);
      if (is(x, "POST", QUOTE) && ok(x) && d && Array.isArray(d.superseded_order_ids) && d.superseded_order_ids.length)
        d.superseded_order_id = null;
    },
  },
  {
    name: "inv_domestic_quote_offers_dhl",
    invariant: "warehouse.quote-carriers",
    breaks: "a US quote also offers a DHL Express rate (a copy of its first rate)",
    apply: (x) => {
      const d = dataOf(x);
      const first = rows(d?.rates)[0];
      if (!is(x, "POST", QUOTE) || !ok(x) || !d || !first || (d.address as Row | undefined)?.country !== "US") return;
      (d.rates as Row[]).push({ ...first, rate_id: `${String(first.rate_id)}-dhl`, carrier: "dhl_express" });
    },
  },
  {
    name: "inv_order_conflict_without_record",
    invariant: "warehouse.conflict-carries-order",
    breaks: "a warehouse order 409 (quote_superseded, invalid_status) carries no data",
    apply: (x) => {
      if (
        ORDERS.test(x.url.pathname) &&
        x.status === 409 &&
        x.body &&
        ["quote_superseded", "invalid_status"].includes(String(x.body.code))
      )
        delete x.body.data;
    },
  },
  {
    name: "inv_memo_names_other_purchase",
    invariant: "purchase.memo-names-it",
    breaks: "a purchase's memo ends in the next purchase's id",
    apply: (x) => {
      if (!/^\/api\/v1\/(mystery|instant)\/purchases?(\/\d+)?$/.test(x.url.pathname) || x.status >= 300) return;
      const d = dataOf(x);
      const list = d && !("memo" in d) && Array.isArray(d.purchases) ? rows(d.purchases) : d ? [d] : [];
      for (const p of list)
        if (typeof p.memo === "string" && typeof p.id === "number") p.memo = p.memo.replace(/\d+$/, String(p.id + 1));
    },
  },
  {
    name: "inv_time_not_wire_iso",
    invariant: "time.iso-utc",
    breaks: "the delivery log's created_at in the HTTP date form Date.parse accepts (Thu, 15 Jan 2026 12:00:00 GMT)",
    apply: (x) => {
      if (!is(x, "GET", /^\/api\/v1\/webhooks\/deliveries$/) || !ok(x)) return;
      for (const r of rows(dataOf(x)?.deliveries))
        if (typeof r.created_at === "string") r.created_at = new Date(r.created_at).toUTCString();
    },
  },
  {
    name: "inv_list_oldest_first",
    invariant: "list.newest-first",
    breaks: "lists documented newest first come oldest first",
    apply: (x) => {
      const d = dataOf(x);
      if (!is(x, "GET", NEWEST_FIRST_LISTS) || !ok(x) || !d) return;
      for (const v of Object.values(d)) if (Array.isArray(v)) v.reverse();
    },
  },
  {
    name: "inv_retry_after_ms_on_503",
    invariant: "pipeline.retry-after-503-seconds",
    breaks: "Retry-After in milliseconds on a 503 other than overloaded (429s and overloaded kept in seconds)",
    apply: (x) => {
      const ra = x.headers.get("Retry-After");
      if (x.status === 503 && x.body?.error !== "overloaded" && ra && /^\d+$/.test(ra))
        x.headers.set("Retry-After", String(Number(ra) * 1000));
    },
  },
  {
    name: "inv_offer_deadline_not_signed",
    invariant: "buyback.signed-terms",
    breaks: "an offer shows a deadline an hour later than the one its typed_data signs",
    apply: (x) => {
      const d = dataOf(x);
      if (!OFFERS.test(x.url.pathname) || x.status >= 300 || !d) return;
      const offers = "typed_data" in d ? [d] : rows(Object.values(d).find(Array.isArray));
      for (const o of offers)
        if (typeof o.deadline === "string") o.deadline = isoOf(Date.parse(o.deadline) + 3_600_000);
    },
  },
  {
    name: "inv_card_declared_source_tenant",
    invariant: "warehouse.card-value-combination",
    breaks: "a published, priced card's declared value says source tenant",
    apply: (x) => {
      if (!CARDS.test(x.url.pathname) || !ok(x)) return;
      for (const c of cardsOf(x)) if (priced(c) && c.declared_value) (c.declared_value as Row).source = "tenant";
    },
  },
  {
    name: "inv_card_insured_off",
    invariant: "warehouse.card-insured-110",
    breaks: "a priced card's insured_price a cent above 110% of its market price",
    apply: (x) => {
      if (!CARDS.test(x.url.pathname) || !ok(x)) return;
      for (const c of cardsOf(x)) if (priced(c)) c.insured_price = plusCent(c.insured_price);
    },
  },
  {
    name: "inv_x402_v1_amount_off",
    invariant: "credits.x402-forms-agree",
    breaks: "the top-up challenge's x402 v1 body asks one atomic unit more than its v2 challenge",
    apply: (x) => {
      const v1 = rows(x.body?.accepts)[0];
      if (
        is(x, "POST", /^\/api\/v1\/credits\/topup$/) &&
        x.status === 402 &&
        v1 &&
        typeof v1.maxAmountRequired === "string"
      )
        v1.maxAmountRequired = String(BigInt(v1.maxAmountRequired) + 1n);
    },
  },
  {
    name: "inv_calldata_expiry_later",
    invariant: "redemption.payment-in-calldata",
    breaks:
      "the shipping-payment call's signed quote expires an hour after the expiration_time the prepare answer shows",
    apply: (x) => {
      if (!is(x, "POST", /^\/api\/v1\/mystery\/redemption\/prepare$/) || x.status >= 300) return;
      const calls = rows((dataOf(x)?.unsigned as Row | null | undefined)?.calls);
      const call = calls.find((c) => c.kind === "shipping-payment");
      if (typeof call?.data !== "string") return;
      // payShipping(q, signature): the head's first word is q's offset; expirationTime is q's sixth word.
      const hex = call.data;
      const at = 10 + (Number(BigInt(`0x${hex.slice(10, 74)}`)) + 5 * 32) * 2;
      const later = (BigInt(`0x${hex.slice(at, at + 64)}`) + 3600n).toString(16).padStart(64, "0");
      call.data = hex.slice(0, at) + later + hex.slice(at + 64);
    },
  },
  {
    name: "inv_webhook_update_answer_ahead",
    invariant: "webhooks.update-then-get",
    breaks:
      "a webhook PATCH/PUT answers an updated_at one second later than the webhook it stored (a later GET disagrees)",
    apply: (x) => {
      if (!/^(PATCH|PUT)$/.test(x.req.method) || !/^\/api\/v1\/webhooks\/\d+$/.test(x.url.pathname) || !ok(x)) return;
      const hook = dataOf(x)?.webhook as Row | undefined;
      if (typeof hook?.updated_at === "string") hook.updated_at = isoOf(Date.parse(hook.updated_at) + 1000);
    },
  },
  {
    name: "inv_stock_not_falling",
    invariant: "instant.stock-falls",
    breaks:
      "the instant catalog shows a pack's stock as it was before the emulator's purchases of it (+ the units sold)",
    apply: (x) => {
      if (!is(x, "GET", /^\/api\/v1\/instant\/catalog$/) || !ok(x)) return;
      const sold = new Map<number, number>();
      for (const p of Object.values(instant(x.services).purchases) as unknown as Row[])
        if (!["REFUNDED", "FAILED"].includes(String(p.status)) && typeof p.packet_type_id === "number")
          sold.set(
            p.packet_type_id,
            (sold.get(p.packet_type_id) ?? 0) + (typeof p.quantity === "number" ? p.quantity : 1),
          );
      for (const pack of rows(dataOf(x)?.packs))
        if (typeof pack.available_packs === "number" && typeof pack.packet_type_id === "number")
          pack.available_packs += sold.get(pack.packet_type_id) ?? 0;
    },
  },
];
