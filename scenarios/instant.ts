import { vrfRequestIdsFromLogs } from "../chain/index.ts";
import { endUserWallet, type Call } from "./mystery.ts";
import type { Scenario, ScenarioContext } from "./types.ts";

// Instant packs (docs/reference/sdk-shapes.md “Instant pack methods”), driven the way a partner integrates: the
// partner's backend reads the catalog and prepares; the end user's wallet signs
// approve + purchaseInstantOpenFor over the emulator's JSON-RPC; the backend
// submits the mined hash and polls until the VRF draw opened the pack.

const I = "/api/v1/instant";

interface Pack {
  packet_type_id: number;
  price_usdc: string;
  available_packs: number;
}
interface Purchase {
  id: number;
  memo?: string;
  status: string;
  custody?: string;
  transaction_hash?: string | null;
  cards?: Array<{ token_id: string; name: string | null; is_chase: boolean | null }>;
  pack?: { name: string } | null;
}

/** The instant events of this run's accounts. */
async function events(ctx: ScenarioContext, type: string) {
  const all = (
    await ctx.control.request<{ events: Array<{ account_id: string; type: string; data: Record<string, unknown> }> }>(
      "GET",
      `/instant/events?type=${type}`,
    )
  ).events;
  return all.filter((e) => ctx.run.accounts.has(e.account_id));
}

export const instantScenarios: Scenario[] = [
  {
    name: "instant",
    title:
      "Instant pack: catalog → prepare → wallet signs → submit → FULFILLED with cards; sold out when the stock runs down",
    description:
      "The catalog shows live price and stock; prepare returns approve + purchaseInstantOpenFor (no kind); the wallet buys and opens on chain; submit records the receipt (SUBMITTED); VRF draws a bundle and the purchase is FULFILLED with its pack and cards; a pack whose stock runs down answers 409 sold_out and leaves the catalog.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      const wallet = await endUserWallet(ctx, 5);
      ctx.step("1. GET /instant/catalog: packs in stock, each with its live price and available_packs");
      const packs = ctx.data<{ packs: Pack[] }>(await ctx.http.get(`${I}/catalog`, { key }), 200, "catalog").packs;
      ctx.expect(
        packs.length > 0 && packs.every((p) => p.available_packs > 0),
        "the default catalog lists only packs in stock",
      );
      const pack = packs[0]!;
      ctx.step(
        `2. prepare packet type ${pack.packet_type_id} (${pack.price_usdc} USDC): calls[0] approves the stablecoin, calls[1] buys and opens`,
      );
      const prep = ctx.data<{ calls: Call[] }>(
        await ctx.http.post(`${I}/purchase/prepare`, {
          key,
          body: { packet_type_id: pack.packet_type_id, wallet_address: wallet.address },
        }),
        200,
        "prepare",
      );
      ctx.expect(prep.calls.length === 2 && prep.calls.every((c) => c.kind === undefined), "two calls, no kind");
      ctx.step(
        "3. the wallet signs both; 4. submit the mined hash (price, request id and recipient come from the receipt)",
      );
      const receipt = await wallet.send(prep.calls);
      const [requestId] = vrfRequestIdsFromLogs(receipt.logs);
      const sub = ctx.data<Purchase>(
        await ctx.http.post(`${I}/purchase/submit`, {
          key,
          body: {
            packet_type_id: pack.packet_type_id,
            transaction_hash: receipt.transactionHash,
            request_id: String(requestId),
            wallet_address: wallet.address,
          },
        }),
        202,
        "submit",
      );
      ctx.expect(sub.status === "SUBMITTED", `submit answers SUBMITTED, got ${sub.status}`);
      // An instant memo is <partner-slug>-instant-<id>, absent without a slug (docs/reference/live-service.md “Money, ids and time”).
      const slug = ctx.data<{ partner_slug: string | null }>(
        await ctx.http.get("/api/v1/mystery/stats", { key }),
        200,
        "stats",
      ).partner_slug;
      ctx.expect(
        sub.memo === (slug === null ? undefined : `${slug}-instant-${sub.id}`),
        `instant memo ${JSON.stringify(sub.memo)} for partner ${JSON.stringify(slug)} and purchase ${sub.id}`,
      );
      ctx.step(
        "5. VRF draws one of the undrawn bundles 5 s later; polling GET /instant/purchase/{id} reads FULFILLED with the pack and its cards",
      );
      await ctx.control.advance(6_000);
      const got = ctx.data<Purchase>(await ctx.http.get(`${I}/purchase/${sub.id}`, { key }), 200, "get purchase");
      ctx.expect(
        got.status === "FULFILLED" && (got.cards?.length ?? 0) > 0 && got.pack,
        `purchase ${sub.id} should be FULFILLED with a pack and cards, is ${got.status}`,
      );
      ctx.expect(
        (await events(ctx, "instant_purchase.fulfilled")).some((e) => e.data.purchase_id === sub.id),
        "instant_purchase.fulfilled for the purchase",
      );

      const last = packs.reduce((a, b) => (b.available_packs < a.available_packs ? b : a));
      ctx.step(
        `6. packet type ${last.packet_type_id} has ${last.available_packs} left: buy them all, then prepare answers 409 sold_out and the catalog hides it`,
      );
      for (let i = 0; i < last.available_packs; i++) {
        const p = ctx.data<{ calls: Call[] }>(
          await ctx.http.post(`${I}/purchase/prepare`, {
            key,
            body: { packet_type_id: last.packet_type_id, wallet_address: wallet.address },
          }),
          200,
          "prepare",
        );
        await wallet.send(p.calls);
      }
      const soldOut = await ctx.http.post(`${I}/purchase/prepare`, {
        key,
        body: { packet_type_id: last.packet_type_id, wallet_address: wallet.address },
      });
      ctx.expect(
        soldOut.status === 409 && (soldOut.body as { error?: string }).error === "sold_out",
        `409 sold_out expected, got ${soldOut.status}`,
      );
      const after = ctx.data<{ packs: Pack[] }>(await ctx.http.get(`${I}/catalog`, { key }), 200, "catalog").packs;
      ctx.expect(
        !after.some((p) => p.packet_type_id === last.packet_type_id),
        "a sold-out pack leaves the default catalog",
      );
      const all = ctx.data<{ packs: Pack[] }>(
        await ctx.http.get(`${I}/catalog`, { key, query: { include_unavailable: "1" } }),
        200,
        "catalog",
      ).packs;
      ctx.expect(
        all.find((p) => p.packet_type_id === last.packet_type_id)?.available_packs === 0,
        "include_unavailable=1 shows it with available_packs 0",
      );
    },
  },
  {
    name: "instant-custodial",
    title: "Custodial instant pack: RESERVED → the relayer buys and opens it for the end user → SUBMITTED → FULFILLED",
    description:
      "No SDK route makes a custodial instant purchase; the operator makes one (POST /_emulator/instant/custodial), as the service's own app would: it answers RESERVED with every on-chain field null and instant_purchase.reserved; 2 s later the relayer buys and opens the pack on chain for the end user's custodial wallet (SUBMITTED, instant_purchase.submitted); the VRF draw makes it FULFILLED with its cards, owned by that wallet.",
    chain: true,
    async run(ctx: ScenarioContext) {
      const key = ctx.keys.demo!;
      ctx.step(
        "1. the operator makes a custodial instant purchase of packet type 1 for a new end user funded with 100 USDC: RESERVED",
      );
      const user = ctx.run.unique("instant-user");
      await ctx.control.request("POST", "/mystery/custodial/fund", { key, external_user_id: user, usdc: "100" });
      const made = await ctx.control.request<Purchase>("POST", "/instant/custodial", {
        key,
        packet_type_id: 1,
        external_user_id: user,
      });
      ctx.expect(
        made.status === "RESERVED" && made.custody === "CUSTODIAL" && made.transaction_hash === null,
        `RESERVED, CUSTODIAL, no hash yet: ${JSON.stringify(made).slice(0, 200)}`,
      );
      ctx.expect(
        (await events(ctx, "instant_purchase.reserved")).some((e) => e.data.purchase_id === made.id),
        "instant_purchase.reserved for the purchase",
      );
      ctx.step(
        "2. 2 s later the relayer buys and opens it on chain for the end user's custodial wallet: SUBMITTED with its hash",
      );
      await ctx.control.advance(2_000);
      const sub = ctx.data<Purchase>(await ctx.http.get(`${I}/purchase/${made.id}`, { key }), 200, "get purchase");
      ctx.expect(
        sub.status === "SUBMITTED" && /^0x[0-9a-f]{64}$/.test(sub.transaction_hash ?? ""),
        `SUBMITTED with the relayer's transaction, got ${sub.status} ${sub.transaction_hash}`,
      );
      ctx.step("3. the VRF draw 5 s later: FULFILLED with the pack and its cards");
      await ctx.control.advance(6_000);
      const got = ctx.data<Purchase>(await ctx.http.get(`${I}/purchase/${made.id}`, { key }), 200, "get purchase");
      ctx.expect(got.status === "FULFILLED" && (got.cards?.length ?? 0) > 0, `FULFILLED with cards, got ${got.status}`);
      const types = (
        await ctx.control.request<{ events: Array<{ type: string; data: Record<string, unknown> }> }>(
          "GET",
          "/instant/events",
        )
      ).events
        .filter((e) => e.data.purchase_id === made.id)
        .map((e) => e.type);
      ctx.expect(
        types.join(",") === "instant_purchase.reserved,instant_purchase.submitted,instant_purchase.fulfilled",
        `one event per step, got ${types.join(", ")}`,
      );
    },
  },
];
