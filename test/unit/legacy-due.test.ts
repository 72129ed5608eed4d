import { describe, expect, it } from "vitest";
import { upgradeLegacyDueTimes } from "../../emulator/state/legacy-due.ts";

// A state file from before the lifecycle tables: each area's old due-time name is read as due_at_ms.

describe("legacy due-time fields in a state file", () => {
  it("renames each area's old field, by the purchase's status where two existed", () => {
    const areas = {
      instant: {
        purchases: {
          "1": { status: "SUBMITTED", fail_at: 9, relay_at: null },
          "2": { status: "RESERVED", fail_at: 9, relay_at: 4 },
        },
      },
      mystery: {
        purchases: { "3": { status: "RESERVED", next_step_at: 7 } },
        redemptions: { r: { status: "PAID", next_step_at: null } },
        transfers: { t: { status: "PENDING", next_attempt_at: 11 } },
      },
      warehouse: { tenants: { acme: { orders: { "5": { status: "LABEL_PENDING", label_due_at: 13 } } } } },
    };
    upgradeLegacyDueTimes(areas);
    expect(areas).toEqual({
      instant: { purchases: { "1": { status: "SUBMITTED", due_at_ms: 9 }, "2": { status: "RESERVED", due_at_ms: 4 } } },
      mystery: {
        purchases: { "3": { status: "RESERVED", due_at_ms: 7 } },
        redemptions: { r: { status: "PAID", due_at_ms: null } },
        transfers: { t: { status: "PENDING", due_at_ms: 11 } },
      },
      warehouse: { tenants: { acme: { orders: { "5": { status: "LABEL_PENDING", due_at_ms: 13 } } } } },
    });
  });

  it("leaves current records, wire strings and odd keys alone", () => {
    const areas = JSON.parse(
      '{"a":{"x":{"due_at_ms":3,"next_step_at":1},"y":{"next_step_at":"2026-01-01T00:00:00.000Z"},"__proto__":{"fail_at":2}}}',
    );
    upgradeLegacyDueTimes(areas);
    expect(areas.a.x).toEqual({ due_at_ms: 3, next_step_at: 1 });
    expect(areas.a.y).toEqual({ next_step_at: "2026-01-01T00:00:00.000Z" });
    expect(({} as Record<string, unknown>).due_at_ms).toBeUndefined();
  });
});
