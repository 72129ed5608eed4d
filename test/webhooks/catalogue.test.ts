import { describe, it, expect } from "vitest";
import { buildEventPayload, isEventType, money } from "../../emulator/events/catalogue.ts";
import { EVENT_TYPES, NOT_LIVE_EVENT_TYPES } from "../../emulator/events/types.ts";

const ctx = { n: 1, now: "2026-01-15T12:00:00.000Z" };

describe("the event catalogue", () => {
  it("has a payload for every live event type, and none for the not-live ones", () => {
    for (const type of EVENT_TYPES) {
      const data = buildEventPayload(type, ctx);
      expect(Object.keys(data).length, type).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(data))).toEqual(data); // plain JSON
    }
    for (const type of NOT_LIVE_EVENT_TYPES) expect(isEventType(type)).toBe(false);
  });

  it("uses the live field names (docs/reference/sdk-shapes.md “Webhook event data”)", () => {
    expect(Object.keys(buildEventPayload("deposit.credited", ctx)).sort()).toEqual([
      "amount",
      "amount_usdc",
      "chain_in",
      "deposit_id",
      "token_in",
      "tx_hash",
    ]);
    expect(buildEventPayload("purchase.fulfilled", ctx)).toMatchObject({
      purchase_id: expect.any(Number),
      status: "FULFILLED",
      items: [expect.objectContaining({ token_id: expect.any(String), item_type: "CARD" })],
    });
    expect(buildEventPayload("buyback.confirmed", ctx)).toMatchObject({
      status: "accepted",
      seller_receives_usdc: expect.stringMatching(/^\d+\.\d{6}$/),
    });
    expect(buildEventPayload("buyback.card_transferred", ctx).tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(buildEventPayload("redemption.updated", ctx)).toHaveProperty("failure_reason", null);
    expect(buildEventPayload("payout.paid", ctx)).toMatchObject({ status: "PAID", period: { kind: "QUARTERLY" } });
    expect(buildEventPayload("order.returned", ctx)).toMatchObject({
      status: "RETURNED",
      order_id: expect.any(Number),
    });
    expect(buildEventPayload("card.returned", ctx).unique_id).toMatch(/^CARD-.{1,17}$/);
  });

  it("is deterministic per n, and different n give different ids", () => {
    expect(buildEventPayload("sellback.confirmed", ctx)).toEqual(buildEventPayload("sellback.confirmed", ctx));
    expect(buildEventPayload("sellback.confirmed", { ...ctx, n: 2 }).sellback_id).not.toBe(
      buildEventPayload("sellback.confirmed", ctx).sellback_id,
    );
  });

  it("deep-merges overrides: objects merge, arrays and scalars replace", () => {
    const data = buildEventPayload("payout.statement_ready", ctx, {
      payout_id: 9,
      period: { kind: "MONTHLY" },
      by_product: null,
    });
    expect(data).toMatchObject({
      payout_id: 9,
      period: { kind: "MONTHLY", from: expect.any(String), to: expect.any(String) },
      by_product: null,
    });
    expect(buildEventPayload("purchase.fulfilled", ctx, { items: [] }).items).toEqual([]);
  });

  it("formats money as micros and 6-decimal USDC strings", () => {
    expect(money(12_500_000)).toEqual({ micros: "12500000", usdc: "12.500000" });
  });
});
