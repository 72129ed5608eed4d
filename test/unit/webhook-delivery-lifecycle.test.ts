import { describe, expect, it } from "vitest";
import { pathOf } from "../../contract/lifecycle.ts";
import { WEBHOOK_DELIVERY } from "../../contract/lifecycles/webhook-delivery.ts";
import { moveDelivery, NEW_DELIVERY_STATUS } from "../../emulator/areas/webhooks/delivery-moves.ts";
import type { DeliveryRecord } from "../../emulator/areas/webhooks/model.ts";
import { ApiError } from "../../emulator/pipeline/errors.ts";

const delivery = (over: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: 1,
  webhook_id: 1,
  owner_key: "k",
  event_type: "purchase.fulfilled",
  event_id: "purchase.fulfilled:1",
  body: "{}",
  status: NEW_DELIVERY_STATUS,
  attempts: 0,
  last_status_code: null,
  last_error: null,
  next_retry_at: "2025-01-01T00:00:00.000Z",
  delivered_at: null,
  created_at: "2025-01-01T00:00:00.000Z",
  ...over,
});

describe("a webhook delivery's moves come from its table", () => {
  it("two failures then a 2xx pass PENDING → DELIVERED (a retry stays PENDING); a resend reopens a finished one", () => {
    expect(pathOf(WEBHOOK_DELIVERY, ["create", "retry", "retry", "deliver", "resend"])).toEqual([
      "PENDING",
      "DELIVERED",
      "PENDING",
    ]);
    expect(() => pathOf(WEBHOOK_DELIVERY, ["create", "give_up", "deliver"])).toThrow('no "deliver" from FAILED');
  });

  it("a move the table lacks is 409 invalid_status and writes nothing (a delivered one is not retried)", () => {
    const d = delivery({ status: "DELIVERED", delivered_at: "2025-01-01T00:00:01.000Z", next_retry_at: null });
    const before = structuredClone(d);
    let err: unknown;
    try {
      moveDelivery(d, "retry", 0, { next_retry_at: "2025-01-01T00:01:00.000Z" });
    } catch (e) {
      err = e;
    }
    expect(err instanceof ApiError && [err.status, err.code]).toEqual([409, "invalid_status"]);
    expect(d).toEqual(before);
  });

  it("a legal move writes the state and its fields together", () => {
    const d = moveDelivery(delivery({ attempts: 6 }), "give_up", 0, { next_retry_at: null });
    expect([d.status, d.next_retry_at]).toEqual(["FAILED", null]);
  });
});
