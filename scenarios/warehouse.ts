import type { Scenario, ScenarioContext } from "./types.ts";

// Warehouse lifecycles for a tenant: each step is what the tenant (or the
// warehouse operator, through /_emulator) does, in order.

const ADDRESS = {
  name: "Ada Buyer",
  street1: "100 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
};

type Card = {
  unique_id: string;
  identity: { status: string };
  pricing: { status: string; market_price: string | null };
  location: string;
  declared_value: unknown;
};
type Order = {
  order_id: number;
  status: string;
  ship_by_at: string | null;
  sla_due_at: string | null;
  tracking_status: string | null;
  last_error: { code: string } | null;
};
type Quote = { order_id: number; rates: { rate_id: string; carrier: string; service: string; amount: string }[] };

const key = (ctx: ScenarioContext) => ctx.keys.tenant;

async function shippableCards(ctx: ScenarioContext, n: number): Promise<string[]> {
  const inv = ctx.data<{ cards: (Card & { status: string })[] }>(
    await ctx.http.get("/api/v1/inventory", { key: key(ctx), query: { status: "AVAILABLE", limit: 100 } }),
    200,
    "list the inventory",
  );
  const ids = inv.cards
    .filter((c) => c.identity.status === "confirmed" && c.location === "OFFCHAIN")
    .map((c) => c.unique_id);
  ctx.expect(ids.length >= n, `need ${n} shippable cards, found ${ids.length}`);
  return ids.slice(0, n);
}

async function quote(ctx: ScenarioContext, ids: string[]): Promise<Quote> {
  const q = ctx.data<Quote>(
    await ctx.http.post("/api/v1/shipping-quote", { key: key(ctx), body: { unique_ids: ids, address: ADDRESS } }),
    200,
    "quote shipping",
  );
  ctx.expect(q.rates.length > 0, "the quote has rates");
  return q;
}

async function commit(ctx: ScenarioContext, q: Quote, rateIndex = 0): Promise<void> {
  ctx.data(
    await ctx.http.post("/api/v1/orders", {
      key: key(ctx),
      body: { order_id: q.order_id, rate_id: q.rates[rateIndex].rate_id },
    }),
    202,
    "commit the rate",
  );
}

const getOrder = async (ctx: ScenarioContext, id: number) =>
  ctx.data<Order>(await ctx.http.get(`/api/v1/orders/${id}`, { key: key(ctx) }), 200, "get the order");

async function placeOrder(ctx: ScenarioContext, ids: string[]): Promise<number> {
  const q = await quote(ctx, ids);
  await commit(ctx, q);
  await ctx.control.advance(3_000);
  const o = await getOrder(ctx, q.order_id);
  ctx.expect(o.status === "LABEL_PURCHASED", `label bought, order is ${o.status}`);
  return q.order_id;
}

export const warehouseScenarios: Scenario[] = [
  {
    name: "warehouse-inbound",
    title: "Inbound shipment → identity → price",
    description:
      "A tenant announces a package (idempotent on submission_key); the warehouse receives it and the cards appear pending identity; the operator publishes an identity, then a price; an incremental sweep picks up each change.",
    chain: false,
    async run(ctx: ScenarioContext) {
      ctx.step("1. note where the inventory sweep ends (resume_cursor)");
      const start = ctx.data<{ resume_cursor: string }>(
        await ctx.http.get("/api/v1/cards", { key: key(ctx), query: { since: 0, limit: 100, type: "all" } }),
        200,
        "full sweep",
      );

      ctx.step("2. announce an inbound shipment of 2 cards, each declared at $40.00 (4000 cents)");
      const body = {
        submission_key: ctx.run.unique("scenario-inbound-1"),
        expected_card_count: 2,
        carrier: "ups",
        tracking_number: "1ZSCENARIO",
        declared_value_per_card: 4000,
      };
      const shipment = ctx.data<{ inbound_shipment_id: number; created: boolean }>(
        await ctx.http.post("/api/v1/inbound-shipments", { key: key(ctx), body }),
        201,
        "announce",
      );
      ctx.expect(shipment.created === true, "first announcement creates the shipment");

      ctx.step("3. a network retry replays the announcement: 200, created:false, same shipment");
      const replay = ctx.data<{ inbound_shipment_id: number; created: boolean }>(
        await ctx.http.post("/api/v1/inbound-shipments", { key: key(ctx), body }),
        200,
        "replay",
      );
      ctx.expect(
        replay.created === false && replay.inbound_shipment_id === shipment.inbound_shipment_id,
        "the replay returns the same shipment with created:false",
      );

      ctx.step("4. operator: the package arrives; its cards appear pending identity");
      const received = await ctx.control.request<{ inbound_shipment: { received_unique_ids: string[] } }>(
        "POST",
        `/warehouse/inbound-shipments/${shipment.inbound_shipment_id}/receive`,
        {},
      );
      const [uid] = received.inbound_shipment.received_unique_ids;
      const pending = ctx.data<Card>(
        await ctx.http.get(`/api/v1/cards/${uid}`, { key: key(ctx) }),
        200,
        "get the new card",
      );
      ctx.expect(
        pending.identity.status === "unconfirmed" &&
          pending.pricing.status === "unverified" &&
          pending.pricing.market_price === null,
        "a received card is unconfirmed / unverified with null prices",
      );

      ctx.step("5. operator: publish the identity (confirmed / unpriced), then price it at $125.00");
      await ctx.control.request("POST", `/warehouse/cards/${uid}/confirm-identity`, { card_id: "base1-4" });
      await ctx.control.request("POST", `/warehouse/cards/${uid}/price`, { market_price: "125.00" });
      const priced = ctx.data<Card>(
        await ctx.http.get(`/api/v1/cards/${uid}`, { key: key(ctx) }),
        200,
        "get the priced card",
      );
      ctx.expect(
        priced.pricing.status === "priced" && priced.pricing.market_price === "125.00",
        "the card is priced with a decimal string",
      );

      ctx.step("6. an incremental sweep from the old resume_cursor sees both new cards");
      const delta = ctx.data<{ cards: Card[] }>(
        await ctx.http.get("/api/v1/cards", { key: key(ctx), query: { since: start.resume_cursor, type: "all" } }),
        200,
        "incremental sweep",
      );
      ctx.expect(
        delta.cards.length === 2 && delta.cards.some((c) => c.unique_id === uid && c.pricing.status === "priced"),
        "the delta holds the received cards, with the latest state",
      );
    },
  },
  {
    name: "warehouse-order",
    title: "Quote → order → ship → deliver",
    description:
      "A tenant quotes shipping for a card, commits a rate (the label is bought a few seconds later on the clock, with ship-by and SLA deadlines in UTC), and the carrier ships and delivers it.",
    chain: false,
    async run(ctx: ScenarioContext) {
      ctx.step("1. pick a shippable card and quote shipping to Austin, TX");
      const [id] = await shippableCards(ctx, 1);
      const q = await quote(ctx, [id]);

      ctx.step(`2. commit the cheapest rate (${q.rates[0].service}); the order is buying its label`);
      await commit(ctx, q);
      ctx.expect((await getOrder(ctx, q.order_id)).status === "LABEL_PURCHASING", "label purchase in flight");

      ctx.step("3. three seconds later the label is bought; deadlines are US Central business days, in UTC");
      await ctx.control.advance(3_000);
      const bought = await getOrder(ctx, q.order_id);
      ctx.expect(
        bought.status === "LABEL_PURCHASED" && bought.ship_by_at?.endsWith("Z") && bought.sla_due_at?.endsWith("Z"),
        "LABEL_PURCHASED with UTC ship_by_at and sla_due_at",
      );

      ctx.step("4. operator: hand it to the carrier, then the carrier delivers");
      await ctx.control.request("POST", `/warehouse/orders/${q.order_id}/ship`);
      await ctx.control.request("POST", `/warehouse/orders/${q.order_id}/deliver`);
      const done = await getOrder(ctx, q.order_id);
      ctx.expect(done.status === "DELIVERED" && done.tracking_status === "delivered", "the order is DELIVERED");
    },
  },
  {
    name: "warehouse-order-retry",
    title: "Order failure → retry",
    description:
      "The carrier refuses a label purchase; the order goes back to PENDING_PAYMENT with nothing applied, and committing again is safe and succeeds.",
    chain: false,
    async run(ctx: ScenarioContext) {
      ctx.step("1. quote a card; the operator makes the next label purchase fail");
      const [id] = await shippableCards(ctx, 1);
      const q = await quote(ctx, [id]);
      await ctx.control.request("POST", "/warehouse/labels/fail-next", { times: 1 });

      ctx.step("2. commit: the label purchase fails a few seconds later; the order is PENDING_PAYMENT again");
      await commit(ctx, q);
      await ctx.control.advance(3_000);
      const failed = await getOrder(ctx, q.order_id);
      ctx.expect(
        failed.status === "PENDING_PAYMENT" && failed.last_error?.code === "label_purchase_failed",
        "PENDING_PAYMENT with last_error",
      );
      const inv = ctx.data<{ cards: { unique_id: string }[] }>(
        await ctx.http.get("/api/v1/inventory", { key: key(ctx), query: { status: "AVAILABLE", limit: 100 } }),
        200,
        "inventory",
      );
      ctx.expect(
        inv.cards.some((c) => c.unique_id === id),
        "the card is available again: nothing was applied",
      );

      ctx.step("3. retry the same commit: safe, and this time the label is bought");
      await commit(ctx, q);
      await ctx.control.advance(3_000);
      ctx.expect((await getOrder(ctx, q.order_id)).status === "LABEL_PURCHASED", "the retry bought the label");
    },
  },
  {
    name: "warehouse-return",
    title: "Return → scan back → reorder",
    description:
      "A shipped package comes back (RETURNED, order.returned); each card is scanned back into inventory (OFFCHAIN, card.returned) and can be ordered again.",
    chain: false,
    async run(ctx: ScenarioContext) {
      ctx.step("1. order two cards and ship them");
      const ids = await shippableCards(ctx, 2);
      const orderId = await placeOrder(ctx, ids);
      await ctx.control.request("POST", `/warehouse/orders/${orderId}/ship`);

      ctx.step("2. the carrier returns the package: the order is RETURNED");
      await ctx.control.request("POST", `/warehouse/orders/${orderId}/return`);
      ctx.expect((await getOrder(ctx, orderId)).status === "RETURNED", "RETURNED");
      const blocked = await ctx.http.post("/api/v1/shipping-quote", {
        key: key(ctx),
        body: { unique_ids: [ids[0]], address: ADDRESS },
      });
      ctx.expect(blocked.status === 409, "a returned card cannot be ordered before it is scanned back");

      ctx.step("3. operator: scan each card back into inventory");
      for (const id of ids)
        await ctx.control.request("POST", `/warehouse/orders/${orderId}/scan-back`, { unique_ids: [id] });
      const card = ctx.data<Card>(
        await ctx.http.get(`/api/v1/cards/${ids[0]}`, { key: key(ctx) }),
        200,
        "get a scanned-back card",
      );
      ctx.expect(card.location === "OFFCHAIN", "scanned-back cards are OFFCHAIN");

      ctx.step("4. order one of them again");
      await placeOrder(ctx, [ids[0]]);
    },
  },
  {
    name: "warehouse-withdrawal",
    title: "Withdrawal",
    description:
      "A tenant asks to withdraw cards (idempotent on idempotency_key); the cards are held; the warehouse completes the withdrawal and they leave the inventory.",
    chain: false,
    async run(ctx: ScenarioContext) {
      ctx.step("1. request a pickup withdrawal of two cards");
      const ids = await shippableCards(ctx, 2);
      const body = { unique_ids: ids, method: "pickup", idempotency_key: ctx.run.unique("scenario-withdrawal-1") };
      const w = ctx.data<{ withdrawal_id: number; status: string }>(
        await ctx.http.post("/api/v1/withdrawals", { key: key(ctx), body }),
        201,
        "request",
      );
      ctx.expect(w.status === "REQUESTED", "REQUESTED");

      ctx.step("2. a retry with the same idempotency_key returns the same withdrawal, 201");
      const again = ctx.data<{ withdrawal_id: number }>(
        await ctx.http.post("/api/v1/withdrawals", { key: key(ctx), body }),
        201,
        "replay",
      );
      ctx.expect(again.withdrawal_id === w.withdrawal_id, "same withdrawal");

      ctx.step("3. operator: the tenant picks the cards up; they leave the inventory");
      await ctx.control.request("POST", `/warehouse/withdrawals/${w.withdrawal_id}/complete`);
      const got = ctx.data<{ status: string }>(
        await ctx.http.get(`/api/v1/withdrawals/${w.withdrawal_id}`, { key: key(ctx) }),
        200,
        "get the withdrawal",
      );
      ctx.expect(got.status === "COMPLETED", "COMPLETED");
      const card = ctx.data<Card>(
        await ctx.http.get(`/api/v1/cards/${ids[0]}`, { key: key(ctx) }),
        200,
        "get a withdrawn card",
      );
      ctx.expect(card.location === "EXTERNAL", "withdrawn cards are no longer in the vault");
    },
  },
];
