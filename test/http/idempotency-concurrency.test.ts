import { describe, expect, it } from "vitest";
import { types, useMystery, type Ctx } from "../mystery/helpers.ts";
import { canonicalJson } from "../../emulator/pipeline/idempotency.ts";

// Parallel replays of one Idempotency-Key, with the chain in the loop: the
// custodial purchase awaits the relayer's transaction, so every replay arrives
// while the first call is still in flight.

// The purchase gate (5) is widened so that all 8 calls are in flight at once.
let ctx: Ctx;
useMystery("manual", (c) => (ctx = c), { gates: { purchase: 16 } });

const buy = (idem: string, body: Record<string, unknown>) =>
  ctx.api.post("/api/v1/mystery/purchase").set("X-API-Key", ctx.demo).set("Idempotency-Key", idem).send(body);
const wallet = async (user: string) =>
  (await ctx.api.get(`/api/v1/wallet/balance?external_user_id=${user}`).set("X-API-Key", ctx.demo).expect(200)).body
    .data.wallet;

describe("idempotency under concurrency", () => {
  it("8 parallel custodial purchases with one key: one purchase, one debit, one set of events", async () => {
    const before = BigInt((await wallet("acme-user-1")).balance);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => buy("par-1", { tier_id: 1, external_user_id: "acme-user-1" })),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(202);
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    await ctx.emu.clock.advance(4_000); // RESERVED → SUBMITTED: the relayer settles the hold
    const after = await wallet("acme-user-1");
    expect(BigInt(after.balance)).toBe(before - 25_000_000n);
    expect(after.reserved).toBe("0");
    expect(types(ctx).filter((t) => t === "purchase.reserved")).toHaveLength(1);
    expect(types(ctx).filter((t) => t === "purchase.submitted")).toHaveLength(1);
    const list = await ctx.api.get("/api/v1/mystery/purchases?limit=100").set("X-API-Key", ctx.demo).expect(200);
    const custodial = (list.body.data.purchases ?? list.body.data).filter(
      (p: { custody: string }) => p.custody === "CUSTODIAL",
    );
    expect(custodial).toHaveLength(1);
  });

  it("parallel calls with one key and different tiers: one wins, the others answer 409 idempotency_mismatch", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        buy("par-2", { tier_id: i % 2 === 0 ? 1 : 2, external_user_id: "acme-user-1" }),
      ),
    );
    const won = answers.filter((a) => a.status === 202);
    const lost = answers.filter((a) => a.status !== 202);
    expect(new Set(won.map((a) => a.body.data.tier_id ?? a.body.data.tier?.id)).size).toBe(1);
    expect(new Set(won.map((a) => a.body.data.id)).size).toBe(1);
    expect(lost.length).toBeGreaterThan(0);
    for (const a of lost) {
      expect(a.status).toBe(409);
      expect(a.body.error).toBe("idempotency_mismatch");
    }
  });

  it("a failed first call is not remembered: parallel retries after funding all replay one purchase", async () => {
    const poor = await Promise.all(
      Array.from({ length: 8 }, () => buy("par-3", { tier_id: 2, external_user_id: "acme-user-2" })),
    );
    for (const a of poor) expect(a.body.error).toBe("insufficient_funds");
    await ctx.api
      .post("/_emulator/mystery/custodial/fund")
      .send({ account_id: "acme", external_user_id: "acme-user-2", usdc: "100" })
      .expect(200);
    const rich = await Promise.all(
      Array.from({ length: 8 }, () => buy("par-3", { tier_id: 2, external_user_id: "acme-user-2" })),
    );
    expect(new Set(rich.map((a) => a.status))).toEqual(new Set([202]));
    expect(new Set(rich.map((a) => a.body.data.id)).size).toBe(1);
  });
});

describe("canonical fingerprints", () => {
  it("key order and nesting do not change the fingerprint; values and array order do", () => {
    expect(canonicalJson({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      canonicalJson({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 2 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ ["__proto__"]: 1, constructor: 2 })).toBe(
      canonicalJson(JSON.parse('{"constructor":2,"__proto__":1}')),
    );
  });
});
