import { describe, it, expect } from "vitest";
import {
  newAccount,
  settle,
  take,
  refund,
  balanceOf,
  nextResetAt,
  recordUsage,
  monthOf,
} from "../../emulator/pipeline/metering.ts";

const JAN = Date.parse("2026-01-15T12:00:00Z");
const FEB = Date.parse("2026-02-01T00:00:00Z");

describe("credit pools", () => {
  it("starts with 500 free credits and spends free before purchased", () => {
    const a = newAccount(JAN);
    expect(a).toMatchObject({ free: 500, purchased: 0 });
    a.purchased = 1000;
    expect(take(a, 600)).toEqual({ free: 500, purchased: 100, period: "2026-01" });
    expect(a).toMatchObject({ free: 0, purchased: 900 });
  });

  it("refuses a charge the balance cannot cover and takes nothing", () => {
    const a = newAccount(JAN, 3);
    expect(take(a, 5)).toBeNull();
    expect(balanceOf(a)).toBe(3);
  });

  it("refunds exactly the split it took", () => {
    const a = newAccount(JAN, 502);
    const c = take(a, 5)!;
    refund(a, c, JAN);
    expect(a).toMatchObject({ free: 500, purchased: 2 });
  });

  it("a charge taken in January and refunded after the February reset does not stack free credits", () => {
    const a = newAccount(JAN, 502);
    const c = take(a, 5)!; // 5 free credits of January's pool
    expect(c).toEqual({ free: 5, purchased: 0, period: "2026-01" });
    refund(a, c, FEB + 1);
    expect(a).toMatchObject({ free: 500, purchased: 2, free_period: "2026-02" });
    // Purchased credits always come back.
    const b = newAccount(JAN, 500);
    b.free = 2;
    b.purchased = 10;
    const d = take(b, 5)!;
    expect(d).toEqual({ free: 2, purchased: 3, period: "2026-01" });
    refund(b, d, FEB);
    expect(b).toMatchObject({ free: 500, purchased: 10 });
  });

  it("resets free credits to 500 at the month start without stacking; purchased never expire", () => {
    const a = newAccount(JAN, 700);
    take(a, 100);
    expect(a).toMatchObject({ free: 400, purchased: 200 });
    settle(a, FEB - 1);
    expect(a.free).toBe(400);
    settle(a, FEB);
    expect(a).toMatchObject({ free: 500, purchased: 200, free_period: "2026-02" });
    settle(a, FEB + 10 * 86400_000);
    expect(a.free).toBe(500);
  });

  it("tracks month-to-date usage and the next reset", () => {
    const a = newAccount(JAN);
    recordUsage(a, 1, JAN);
    recordUsage(a, 5, JAN);
    recordUsage(a, 1, FEB);
    expect(a.usage).toEqual({ "2026-01": 6, "2026-02": 1 });
    expect(nextResetAt(JAN)).toBe("2026-02-01T00:00:00.000Z");
    expect(nextResetAt(Date.parse("2026-12-31T23:59:59Z"))).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("monthOf", () => {
  it("names the UTC month at its edges, across years, and back and forth", () => {
    expect(monthOf(Date.parse("2026-01-31T23:59:59.999Z"))).toBe("2026-01");
    expect(monthOf(Date.parse("2026-02-01T00:00:00.000Z"))).toBe("2026-02");
    expect(monthOf(Date.parse("2026-01-01T00:00:00.000Z"))).toBe("2026-01");
    expect(monthOf(Date.parse("2025-12-31T23:59:59.999Z"))).toBe("2025-12");
    expect(monthOf(Date.parse("2026-02-15T00:00:00.000Z"))).toBe("2026-02");
    expect(monthOf(Date.parse("1999-07-04T12:00:00.000Z"))).toBe("1999-07");
  });
});
