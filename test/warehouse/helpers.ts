import { useEmulator, type Api, type Emulator } from "../helpers.ts";
import type { EventType } from "../../emulator/events/types.ts";

export const US_ADDRESS = {
  name: "Ada Buyer",
  street1: "100 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
};
export const DE_ADDRESS = {
  name: "Bea Käufer",
  street1: "Unter den Linden 1",
  city: "Berlin",
  zip: "10117",
  country: "DE",
};

export interface WireCard {
  unique_id: string;
  type: "raw" | "graded";
  identity: { status: string; card_id: string | null };
  pricing: { status: string; market_price: string | null };
  insured_price: string | null;
  declared_value: { amount: number; source: string } | null;
  location: string;
  status?: string;
}

/** Every card of a full `since` sweep (type=all). */
export async function sweep(api: Api, key: string, type = "all"): Promise<WireCard[]> {
  const out: WireCard[] = [];
  let since: string | null = "0";
  while (since !== null) {
    const res: { body: { data: { cards: WireCard[]; next_cursor: string | null } } } = await api
      .get("/api/v1/cards")
      .query({ since, type, limit: 100 })
      .set("X-API-Key", key)
      .expect(200);
    out.push(...res.body.data.cards);
    since = res.body.data.next_cursor;
  }
  return out;
}

/** Cards that can be quoted: published, in the vault, available. */
export async function shippable(api: Api, key: string, n = 1): Promise<string[]> {
  const res = await api
    .get("/api/v1/inventory")
    .query({ limit: 100, type: "all", status: "AVAILABLE" })
    .set("X-API-Key", key)
    .expect(200);
  const ids = (res.body.data.cards as WireCard[])
    .filter((c) => c.identity.status === "confirmed" && c.location === "OFFCHAIN")
    .map((c) => c.unique_id);
  if (ids.length < n) throw new Error(`only ${ids.length} shippable cards`);
  return ids.slice(0, n);
}

export async function quote(api: Api, key: string, ids: string[], address: Record<string, unknown> = US_ADDRESS) {
  const res = await api
    .post("/api/v1/shipping-quote")
    .set("X-API-Key", key)
    .send({ unique_ids: ids, address })
    .expect(200);
  return res.body.data as { order_id: number; rates: { rate_id: string; carrier: string; amount: string }[] };
}

/** Quote, commit the first rate, and let the label purchase finish on the clock. */
export async function placeOrder(emu: Emulator, api: Api, key: string, ids: string[]) {
  const q = await quote(api, key, ids);
  await api
    .post("/api/v1/orders")
    .set("X-API-Key", key)
    .send({ order_id: q.order_id, rate_id: q.rates[0].rate_id })
    .expect(202);
  await emu.clock.advance(3_000);
  const res = await api.get(`/api/v1/orders/${q.order_id}`).set("X-API-Key", key).expect(200);
  return res.body.data as Record<string, unknown> & { order_id: number; status: string };
}

/** Records webhook events published on the bus. */
export function recordEvents(emu: Emulator) {
  const events: { account_id: string; type: EventType | string; key: string; data: Record<string, unknown> }[] = [];
  const off = emu.services.bus.on("webhook.event", (e) => events.push(e));
  return { events, off, of: (type: string) => events.filter((e) => e.type === type) };
}

/**
 * One emulator for a warehouse test file and its fixture tenant: `set` receives the emulator, the agent and the
 * tenant's key; `post` (JSON) and `get` call as that tenant unless another key is given.
 */
export function useTenant(set: (ctx: { emu: Emulator; api: Api; tenant: string }) => void) {
  let api: Api;
  let tenant: string;
  useEmulator((ctx) => {
    ({ api } = ctx);
    tenant = ctx.emu.key("tenant");
    set({ ...ctx, tenant });
  });
  return {
    post: (path: string, body: unknown, key = tenant) =>
      api
        .post(path)
        .set("X-API-Key", key)
        .send(body as object),
    get: (path: string, key = tenant) => api.get(path).set("X-API-Key", key),
  };
}
