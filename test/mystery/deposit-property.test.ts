import fc from "fast-check";
import { encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAndWait, usdStablecoinAbi } from "../../chain/index.ts";
import { startMystery, user, type Ctx } from "./helpers.ts";
import { usdcOf } from "../chain-reads.ts";

// The custodial books against the chain they were scanned from (issue 37), over random sequences of deposits,
// reads, restores (with a read in flight), resets and evm_revert of the chain alone: afterwards every user's
// balance is exactly the USDC their deposit address holds (the book is backed), on-chain USDC is conserved, and
// the key's free credits never pass their 500 ceiling.

let ctx: Ctx;
let base: string;
const USERS = ["dp-0", "dp-1"];
const addresses: `0x${string}`[] = [];
beforeAll(async () => {
  ctx = await startMystery("manual");
  for (const u of USERS)
    addresses.push(
      (
        await ctx.api
          .post("/api/v1/wallet/deposit-address")
          .set("X-API-Key", ctx.demo)
          .send({ external_user_id: u })
          .expect(200)
      ).body.data.address,
    );
  base = await ctx.emu.snapshot();
});
afterAll(() => ctx.close());

type Op =
  | { kind: "deposit"; who: number; usdc: number }
  | { kind: "read"; who: number }
  | { kind: "chainSnapshot" }
  | { kind: "chainRevert" }
  | { kind: "checkpoint" }
  | { kind: "replace"; via: "restore" | "reset" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      who: fc.nat(1),
      usdc: fc.integer({ min: 1, max: 5 }),
    }),
  },
  fc.record({ kind: fc.constant("read" as const), who: fc.nat(1) }),
  fc.record({ kind: fc.constant("chainSnapshot" as const) }),
  fc.record({ kind: fc.constant("chainRevert" as const) }),
  fc.record({ kind: fc.constant("checkpoint" as const) }),
  fc.record({ kind: fc.constant("replace" as const), via: fc.constantFrom("restore" as const, "reset" as const) }),
);

const balance = (who: number) =>
  ctx.api.get(`/api/v1/wallet/balance?external_user_id=${USERS[who]}`).set("X-API-Key", ctx.demo);

describe("deposits: the custodial book follows the chain (property)", () => {
  it("every balance is what its deposit address holds; USDC conserved; free credits within 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 10 }), async (ops) => {
        await ctx.emu.restore(base);
        const chain = ctx.emu.chain!;
        const senders = [user(ctx, 2), user(ctx, 3)];
        const held = async () => {
          let total = 0n;
          for (const a of [...addresses, ...senders.map((s) => s.address)]) total += await usdcOf(ctx.emu, a);
          return total;
        };
        const before = await held();
        const chainSnaps: string[] = [];
        const checkpoints: string[] = [];
        for (const o of ops) {
          if (o.kind === "deposit") {
            const data = encodeFunctionData({
              abi: usdStablecoinAbi,
              functionName: "transfer",
              args: [addresses[o.who]!, BigInt(o.usdc) * 1_000_000n],
            });
            await sendAndWait(chain, senders[o.who]!, { to: chain.addresses.stablecoin, data });
          } else if (o.kind === "read") await balance(o.who).expect(200);
          else if (o.kind === "chainSnapshot") chainSnaps.push(await chain.snapshot());
          else if (o.kind === "chainRevert") {
            const id = chainSnaps.pop();
            if (id) await chain.revert(id); // evm_revert behind the books
          } else if (o.kind === "checkpoint") checkpoints.push(await ctx.emu.snapshot());
          else {
            // A read in flight (its scan reading the chain) across the replacement.
            const inFlight = [balance(0), balance(1)].map((r) => r.then((x) => x));
            if (o.via === "reset") await ctx.api.post("/_emulator/reset").expect(200);
            await ctx.api
              .post("/_emulator/restore")
              .send({ id: checkpoints.at(-1) ?? base })
              .expect(200);
            chainSnaps.length = 0; // a restore drops the chain's later snapshots
            for (const r of await Promise.all(inFlight)) expect(r.status).toBe(200);
          }
        }
        await ctx.emu.clock.advance(1);
        for (const [i, a] of addresses.entries()) {
          const w = (await balance(i).expect(200)).body.data.wallet;
          expect(BigInt(w.balance), USERS[i]).toBe(await usdcOf(ctx.emu, a));
        }
        expect(await held()).toBe(before);
        const credits = (await ctx.api.get(`/_emulator/credits/${ctx.demo}`).expect(200)).body.data;
        expect(credits.free_credits).toBeLessThanOrEqual(500);
      }),
      { numRuns: 10, seed: 37 },
    );
  });
});
