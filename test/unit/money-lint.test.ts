import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// No float arithmetic on amounts (docs/decisions.md, "Lint, format and dead code"): the lint rule
// that enforces it in every shipped folder flags parseFloat, Number(<amount>) and a number scaled
// by 10^6, and leaves bigint micros alone.

const ROOT = join(import.meta.dirname, "..", "..");
const MONEY = /^money: amounts are bigint micros/;

async function moneyLines(code: string, file = "emulator/areas/example/pricing.ts"): Promise<number[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => MONEY.test(m.message)).map((m) => m.line);
}

describe("the money lint rule", () => {
  it("flags each float path on an amount", async () => {
    const code = [
      "export const a = (s: string) => parseFloat(s);",
      "export const b = (s: string) => Number.parseFloat(s);",
      "export const c = (price_micros: string) => Number(price_micros);",
      "export const d = (row: { amount_usdc: string }) => Number(row.amount_usdc);",
      "export const e = (m: bigint) => Number(BigInt(m));",
      "export const f = (m: number) => m / 1_000_000;",
      "export const g = (usd: number) => usd * 1e6;",
    ].join("\n");
    expect(await moneyLines(code)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const folder of ["chain", "fixtures", "shadow", "cli"])
      expect(await moneyLines(code, `${folder}/example.ts`), folder).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("leaves integer micros, non-amounts and the money modules alone", async () => {
    const code = [
      "export const a = (m: bigint) => m / 1_000_000n;",
      "export const b = (port: string) => Number(port);",
      "export const c = (usd: string) => parseFloat(usd);",
    ].join("\n");
    expect(await moneyLines(code.split("\n").slice(0, 2).join("\n"))).toEqual([]);
    expect(await moneyLines(code, "contract/money.ts")).toEqual([]);
  });
});
