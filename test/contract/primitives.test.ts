import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_PAYLOADS } from "../../contract/events.ts";
import { InstantPurchase } from "../../contract/instant.ts";
import { address, isoTime, micros, txHash, usdcString, usdDecimal } from "../../contract/primitives.ts";

// The wire's field formats are declared once (contract/primitives.ts; docs/decisions.md "One way for each job").
describe("contract primitives", () => {
  it("USDC is a 6-place decimal string (signed for ledger movements); a reveal's value_usd any decimal", () => {
    expect(["12.500000", "0.000000", "-3.250000"].map((s) => usdcString.safeParse(s).success)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["12.5", "12", "12.5000000", "1e6", " 1.000000"].map((s) => usdcString.safeParse(s).success)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["312.45", "0.100000", "-1.5"].map((s) => usdDecimal.safeParse(s).success)).toEqual([true, true, true]);
    expect(["312", "$3.00"].map((s) => usdDecimal.safeParse(s).success)).toEqual([false, false]);
    expect([micros.safeParse("2500000").success, micros.safeParse("-1").success]).toEqual([true, false]);
    expect(isoTime.safeParse("2026-01-15T12:00:00.000Z").success).toBe(true);
    expect(isoTime.safeParse("2026-01-15").success).toBe(false);
    expect(address.safeParse(`0x${"ab".repeat(20)}`).success).toBe(true);
    expect(txHash.safeParse(`0x${"ab".repeat(20)}`).success).toBe(false);
  });

  it("events and the instant contract hold *_usdc fields to 6 places", () => {
    const deposit = {
      deposit_id: 1,
      amount: "2500000",
      chain_in: "base",
      token_in: "USDC",
      tx_hash: `0x${"1".repeat(64)}`,
    };
    expect(EVENT_PAYLOADS["deposit.credited"].safeParse({ ...deposit, amount_usdc: "2.500000" }).success).toBe(true);
    expect(EVENT_PAYLOADS["deposit.credited"].safeParse({ ...deposit, amount_usdc: "2.5" }).success).toBe(false);
    const price = InstantPurchase.shape.price_usdc;
    expect([price.safeParse("4.990000").success, price.safeParse("4.99").success]).toEqual([true, false]);
  });

  it("no other contract file declares its own USDC, address, hash or instant pattern", () => {
    const root = join(__dirname, "../../contract");
    const own = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && f !== "primitives.ts")
      .filter((f) =>
        /z\.iso\.datetime\(|\.regex\(\/\^0x\[0-9a-fA-F\]\{(40|64)\}\$\/\)|\\d\{6\}\$\//.test(
          readFileSync(join(root, f), "utf8"),
        ),
      );
    expect(own).toEqual([]);
  });
});
