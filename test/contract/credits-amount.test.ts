import { describe, expect, it } from "vitest";
import { CREDITS } from "../../contract/index.ts";

// The top-up amount is parsed from its decimal text exactly (no float on the
// way): cents, credits and the stablecoin's atomic units are integers.

const parse = (usd: string) => CREDITS.topup.schema.query.safeParse({ usd });

describe("top-up usd", () => {
  it.each([
    ["5", 500, 2500, 5_000_000n],
    ["5.1", 510, 2550, 5_100_000n],
    ["19.99", 1999, 9995, 19_990_000n],
    ["0019.90", 1990, 9950, 19_900_000n],
    ["1000.00", 100_000, 500_000, 1_000_000_000n],
  ])("%s → %i cents exactly", (usd, cents, credits, atomic) => {
    const res = parse(usd);
    expect(res.data?.usd).toMatchObject({ cents, credits, atomic });
  });

  it.each(["0.29e2", "1e3", "5.001", "-5", "5.", ".5", "12345678"])("%s is refused", (usd) => {
    expect(parse(usd).success).toBe(false);
  });
});
