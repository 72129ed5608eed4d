import type { Check, CheckContext } from "../types.ts";
import { runs } from "../types.ts";
import { ensure, expectError, expectSuccess, intHeader } from "../assert.ts";
import { rpcMissing } from "./target.ts";
import { PROBE } from "./pipeline.ts";
import { inSnapshot } from "../isolate.ts";
import { buyAndReveal, PACK_USDC } from "./commerce.ts";
import { waitOut } from "../wait.ts";

// Partner limits as the live service documents them (docs/reference/live-service.md “Rate limits and caching”, SDK
// README 0.1.2): a rate-limit window per surface, the fresh=true budget, and the
// short response cache on the cached reads that fresh=true bypasses.

const M = "/api/v1/mystery";
const GUARDS = "docs/reference/live-service.md “Rate limits and caching” (Rate limits, concurrency, caching)";

export const limitsChecks: Check[] = [
  {
    id: "limits.window-per-surface",
    guards: GUARDS,
    profile: "pipeline",
    title: "Partner commerce and Card Data count on their own per-key windows (240/min and 300/min)",
    rule: "Partner API 240 req/min per key (Gacha + Instant); Card Data 300 req/min per key; X-RateLimit-Limit shows the ceiling in force.",
    ...runs("read-only", ["partnerKey"], 2),
    deviation: "one_rate_limit",
    async run({ http, partnerKey, control }) {
      const card = await http.get(PROBE, { key: partnerKey });
      expectSuccess(card, "a Card Data read");
      const partner = await http.get(`${M}/catalog`, { key: partnerKey });
      expectSuccess(partner, "GET /mystery/catalog");
      ensure(
        intHeader(card, "X-RateLimit-Limit", "Card Data") === 300,
        `Card Data X-RateLimit-Limit must be 300, is ${card.headers["x-ratelimit-limit"]}`,
      );
      ensure(
        intHeader(partner, "X-RateLimit-Limit", "partner") === 240,
        `partner commerce X-RateLimit-Limit must be 240, is ${partner.headers["x-ratelimit-limit"]}`,
      );
      const again = await http.get(PROBE, { key: partnerKey });
      const [c1, c2] = [
        intHeader(card, "X-RateLimit-Remaining", "Card Data"),
        intHeader(again, "X-RateLimit-Remaining", "Card Data"),
      ];
      if (control) {
        // A fresh key: exact counts.
        ensure(
          intHeader(partner, "X-RateLimit-Remaining", "partner") === 239,
          "the partner window counts its own first request (239 left)",
        );
        ensure(c2 === 298, "the Card Data window is not charged for partner calls (298 left after two reads)");
      } else {
        // A used key's windows slide meanwhile (old requests drop out): one window would have taken two between the reads.
        ensure(
          c2 >= c1 - 1,
          `the Card Data window is not charged for partner calls: ${c1} left, then ${c2} after one partner call and one read`,
        );
      }
    },
  },
  {
    id: "limits.fresh-budget",
    guards: GUARDS,
    profile: "mystery",
    title: "fresh=true: 10 calls per minute per key, then 429 rate_limited with Retry-After",
    rule: "Catalog, odds, price and the feeds accept fresh=true to recompute, with its own budget of 10 calls/min/key (429 beyond).",
    ...runs("sandbox", ["partnerKey"]),
    waitMs: 61_000,
    deviation: "no_fresh_budget",
    async run(ctx) {
      const { partnerKey, control } = ctx;
      // This check wants the 429 itself: outside emulator mode the session waits 429s out, this client does not.
      const http = ctx.http.paced(0);
      const fresh = () => http.get(`${M}/catalog?fresh=true`, { key: partnerKey });
      // A used key may have spent some of its fresh budget in the last minute: at most 10 pass before the 429.
      let r = await fresh();
      let ok = 0;
      for (; r.status === 200 && ok <= 10; r = await fresh()) ok++;
      ensure(ok <= 10, "fresh=true must be refused after 10 calls in a minute");
      if (control) ensure(ok === 10, `a fresh key gets 10 fresh=true calls a minute, got ${ok}`);
      expectError(r, 429, "rate_limited", `fresh=true call ${ok + 1} in a minute`);
      const retry = intHeader(r, "Retry-After", "429");
      if (control) ensure(retry === 60, `Retry-After must be 60 (no clock moved), is ${r.headers["retry-after"]}`);
      ensure(retry >= 1 && retry <= 60, `Retry-After must be within the minute, is ${retry}`);
      ensure(intHeader(r, "X-RateLimit-Remaining", "429") === 0, "X-RateLimit-Remaining 0 on the refusal");
      // Through the session's client: outside emulator mode a used key's general window may be full from the
      // checks before (a 429 of that window, waited out, says nothing of the fresh budget's).
      expectSuccess(await ctx.http.get(`${M}/catalog`, { key: partnerKey }), "the same read without fresh=true");
      if (control) await control.advance(retry * 1000);
      else await waitOut(ctx, "the fresh=true budget's Retry-After", retry * 1000);
      expectSuccess(await fresh(), "a fresh call once Retry-After has passed");
    },
  },
  {
    id: "limits.response-cache",
    guards: GUARDS,
    profile: "mystery",
    title: "GET /mystery/price is cached ~60 s; fresh=true recomputes it",
    rule: "/mystery/price is cached ~60 s; fresh=true recomputes.",
    // A pack bought and revealed with the test wallet (a fixture one in emulator mode, undone afterwards).
    ...runs("sandbox", ["partnerKey", "wallet"]),
    spendUsdc: PACK_USDC,
    waitMs: 81_000,
    deviation: "no_response_cache",
    applicable: rpcMissing,
    async run(ctx) {
      if (!ctx.control) return priceIsCached(ctx);
      // The purchase it makes is undone afterwards (state and chain), so later checks see no trace of it.
      await inSnapshot(ctx.control, () => priceIsCached(ctx), { manualClock: false });
    },
  },
];

async function priceIsCached(ctx: CheckContext): Promise<void> {
  const { http, partnerKey, control } = ctx;
  ensure(ctx.wallet, "no test wallet");
  const { purchase } = await buyAndReveal(ctx, ctx.wallet);
  const token = (purchase.items?.find((i) => i.item_type === "CARD") ?? purchase.items?.[0])?.token_id;
  ensure(token, `revealed purchase ${purchase.id} must carry items`);
  const pass = (ms: number, what: string) => (control ? control.advance(ms) : waitOut(ctx, what, ms));
  const path = `${M}/price?token_id=${token}`;
  const stamp = async (p: string, what: string) =>
    (expectSuccess(await http.get(p, { key: partnerKey }), what).data as { updated_at: string }).updated_at;
  const first = await stamp(path, "price");
  await pass(20_000, "20 s, inside the cache time");
  const cached = await stamp(path, "price 20 s later");
  ensure(cached === first, `a read within 60 s must be the cached answer (updated_at ${first}), got ${cached}`);
  const fresh = await stamp(`${path}&fresh=true`, "price with fresh=true");
  ensure(fresh !== first, `fresh=true must recompute (updated_at after ${first}), got ${fresh}`);
  await pass(61_000, "the 60 s cache time");
  const expired = await stamp(path, "price after the cache time");
  ensure(expired > fresh, `after ~60 s the entry expires (updated_at after ${fresh}), got ${expired}`);
}
