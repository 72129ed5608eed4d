import { webhooksSlice } from "../../emulator/areas/webhooks/model.ts";
import { errorIs, is, keyOf, type Deviation } from "./deviation.ts";

// Deviations that break the refusals and limits of conformance/checks/refusals.ts, one rule each.

export const refusalDeviations: readonly Deviation[] = [
  {
    name: "buyback_tier_insufficient_permissions",
    breaks: "buyback with a TIER key is 403 not_pool_partner",
    apply: (x) => {
      // The model refusal answered as a plain scope refusal.
      if (errorIs(x, 403, "not_pool_partner") && is(x, "POST", /^\/api\/v1\/mystery\/buyback(\/[^/]+)?$/) && x.body)
        x.body.error = "Insufficient permissions";
    },
  },
  {
    name: "offset_uncapped",
    breaks: "offset pagination is capped at 10,000",
    apply: (x) => {
      // The delivery log reports the offset asked for, past the cap.
      const asked = Number(x.url.searchParams.get("offset"));
      const p = x.body?.pagination as { offset?: number } | undefined;
      if (x.status === 200 && is(x, "GET", /^\/api\/v1\/webhooks\/deliveries$/) && p && asked > 10_000)
        p.offset = asked;
    },
  },
  {
    name: "idempotency_key_limit_127",
    breaks: "idempotency keys are up to 128 characters",
    apply: (x) => {
      // A 128-character key refused as too long.
      if (
        keyOf(x)?.kind === "tenant" &&
        x.req.method === "POST" &&
        x.req.headers.get("idempotency-key")?.length === 128
      ) {
        x.status = 400;
        x.body = {
          success: false,
          message: "Idempotency-Key is 128 characters; at most 127 are allowed",
          error: "Idempotency-Key is 128 characters; at most 127 are allowed",
          code: "invalid_idempotency_key",
        };
      }
    },
  },
  {
    name: "price_value_unknown_not_found",
    breaks: "the price of a card with no market price is 404 value_unknown",
    apply: (x) => {
      if (errorIs(x, 404, "value_unknown") && is(x, "GET", /^\/api\/v1\/mystery\/price$/) && x.body)
        x.body.error = "not_found";
    },
  },
];

export const ineligibleDeviations: readonly Deviation[] = [
  {
    name: "not_eligible_without_data",
    breaks: "a warehouse 409 carries data with the conflicting resource's current state",
    apply: (x) => {
      if (errorIs(x, 409, "not_eligible") && is(x, "POST", /^\/api\/v1\/shipping-quote$/) && x.body) delete x.body.data;
    },
  },
];

export const gateDeviations: readonly Deviation[] = [
  {
    name: "warehouse_read_pool_21",
    breaks: "the warehouse read pool holds 20 concurrent requests",
    apply: (x) => {
      // The first request beyond the pool is served, as a pool of 21 would.
      if (errorIs(x, 503, "overloaded") && is(x, "GET", /^\/api\/v1\/sites$/)) {
        x.status = 200;
        x.body = {
          success: true,
          data: { sites: [], total: 0 },
          pagination: { limit: 50, offset: 0, has_more: false },
        };
        x.headers.delete("Retry-After");
      }
    },
  },
];

/** Deviations of conformance/checks/events.ts. */
export const eventDeviations: readonly Deviation[] = [
  {
    name: "not_fulfilled_as_no_items",
    breaks: "an unrevealed purchase where a revealed one is needed is 409 not_fulfilled",
    apply: (x) => {
      if (errorIs(x, 409, "not_fulfilled") && is(x, "POST", /^\/api\/v1\/mystery\/redemption\/quote$/) && x.body)
        x.body.error = "no_items";
    },
  },
  neverDelivers("purchase_refunded_never_delivered", "purchase.refunded"),
  neverDelivers("instant_failed_never_delivered", "instant_purchase.failed"),
  neverDelivers("deposit_credited_never_delivered", "deposit.credited"),
];

/** A server that keeps a subscription to `type` but never sends it: the stored webhook loses the type. */
function neverDelivers(name: string, type: string): Deviation {
  return {
    name,
    breaks: `${type} is delivered to the webhooks subscribed to it`,
    apply: (x) => {
      const id = (x.body?.data as { id?: unknown } | undefined)?.id;
      if (x.status !== 201 || !is(x, "POST", /^\/api\/v1\/webhooks$/) || typeof id !== "number") return;
      const rec = webhooksSlice(x.services.store).webhooks[id];
      if (rec && rec.event_types.length > 1) rec.event_types = rec.event_types.filter((t) => t !== type);
    },
  };
}

/** Deviations of conformance/checks/instant-cards.ts. */
export const instantCardDeviations: readonly Deviation[] = [
  {
    name: "instant_card_sellback_eligible",
    breaks: "instant cards have no sell-back window",
    apply: (x) => {
      // Tokens without a window quoted eligible.
      const items = (x.body?.data as { items?: { eligible: boolean; reason: unknown }[] } | undefined)?.items;
      if (x.status !== 200 || !is(x, "POST", /^\/api\/v1\/mystery\/sellback\/quote$/) || !Array.isArray(items)) return;
      for (const i of items) if (i.reason === "no_window") Object.assign(i, { eligible: true, reason: null });
    },
  },
  {
    name: "sellback_refusal_without_details",
    breaks: "a sell-back refusal's details name the token and the reason",
    apply: (x) => {
      if (x.status === 409 && is(x, "POST", /^\/api\/v1\/mystery\/sellback\/prepare$/) && x.body) delete x.body.details;
    },
  },
];

/** The sell-back pre-flight of conformance/checks/instant-cards.ts. */
export const sellbackDeviations: readonly Deviation[] = [
  {
    name: "sellback_window_never_closes",
    breaks: "a sell-back after the buyback window is 409 window_expired",
    apply: (x) => {
      if (errorIs(x, 409, "window_expired") && is(x, "POST", /^\/api\/v1\/mystery\/sellback\/prepare$/) && x.body)
        x.body.error = "not_eligible";
    },
  },
];

/** conformance/checks/refusals.ts's webhooks.no-partial-event. */
export const partialEventDeviations: readonly Deviation[] = [
  {
    name: "partial_event_accepted",
    breaks: "no event exists for PARTIALLY_FULFILLED",
    apply: (x) => {
      // A subscription to purchase.partially_fulfilled answered as registered.
      if (!errorIs(x, 400, "invalid_event_types") || !is(x, "POST", /^\/api\/v1\/webhooks$/)) return;
      if (!/partially_fulfilled/.test(String(x.body?.message ?? ""))) return;
      x.status = 201;
      x.body = {
        success: true,
        data: { id: 0, url: "https://example.com/cardos-conformance-partial", event_types: [] },
      };
    },
  },
];
