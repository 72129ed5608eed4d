import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, newKey, type Api, type Emulator } from "../helpers.ts";
import { startReceiver, type Receiver } from "../webhooks/receiver.ts";
import { US_ADDRESS, shippable } from "../warehouse/helpers.ts";

// Keys are credentials: no API answer (body or header) and no webhook delivery
// may contain a full key, whichever key made the change and whichever key reads
// it. The control plane (/_emulator/keys) is the developer's own console and
// may show them; it is not scanned. Keys are made, many routes of every area
// are exercised with them, then every answer is scanned for every key's value.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let rx: Receiver;
beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: false, vrf: "auto" } }));
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await close();
});

interface Seen {
  what: string;
  text: string;
}
const seen: Seen[] = [];

type Verb = "get" | "post" | "patch" | "put" | "delete";
async function call(verb: Verb, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  let req = api[verb](path).set("X-API-Key", key);
  for (const [h, v] of Object.entries(headers)) req = req.set(h, v);
  const res = body === undefined ? await req : await req.send(body as object);
  seen.push({
    what: `${verb.toUpperCase()} ${path} → ${res.status}`,
    text: `${res.text}\n${JSON.stringify(res.headers)}`,
  });
  return res;
}

describe("no API answer or webhook delivery contains a key", () => {
  it("exercises every area with several keys, then finds no key value anywhere", async () => {
    const writer = await newKey(api, { kind: "tenant", label: "warehouse writer" });
    const reader = await newKey(api, { kind: "tenant", scopes: ["read:inventory"], label: "read only" });
    const other = await newKey(api, { kind: "tenant", account_id: "globex", label: "globex" });
    const partner = emu.key("demo");
    const tenant = emu.key("tenant");

    // Webhooks: tenant and partner, delivered to a real receiver.
    expect((await call("post", "/api/v1/webhooks", writer, { url: rx.url, event_types: [] })).status).toBe(201);
    expect((await call("post", "/api/v1/webhooks", partner, { url: rx.url, event_types: [] })).status).toBe(201);

    // Warehouse: orders (committed, label bought, cancelled), a second quote, custody, inbound, billing.
    const ids = await shippable(api, writer, 4);
    const q = await call("post", "/api/v1/shipping-quote", writer, { unique_ids: [ids[0]], address: US_ADDRESS });
    expect(q.status).toBe(200);
    expect(
      (
        await call("post", "/api/v1/orders", writer, {
          order_id: q.body.data.order_id,
          rate_id: q.body.data.rates[0].rate_id,
        })
      ).status,
    ).toBe(202);
    await emu.clock.advance(3_000);
    expect((await call("post", `/api/v1/orders/${q.body.data.order_id}/cancel`, writer)).status).toBe(200);
    const q2 = await call("post", "/api/v1/shipping-quote", tenant, { unique_ids: [ids[1]], address: US_ADDRESS });
    await call("post", "/api/v1/shipping-quote", tenant, { unique_ids: [ids[1]], address: US_ADDRESS });
    await call("post", "/api/v1/orders", tenant, {
      order_id: q2.body.data.order_id,
      rate_id: q2.body.data.rates[0].rate_id,
    });
    expect(
      (
        await call("post", "/api/v1/withdrawals", writer, {
          unique_ids: [ids[2]],
          method: "pickup",
          idempotency_key: "w-1",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call("post", "/api/v1/withdrawals", writer, {
          unique_ids: [ids[3]],
          method: "pickup",
          idempotency_key: "w-1",
        })
      ).status,
    ).toBe(409);
    const globexCard = (await shippable(api, other, 1))[0];
    expect(
      (await call("post", `/api/v1/cards/${globexCard}/transfer`, other, { to_account_id: "northwind", note: "gift" }))
        .status,
    ).toBe(201);
    const inbound = await call("post", "/api/v1/inbound-shipments", writer, {
      expected_card_count: 2,
      declared_value_per_card: 500,
      submission_key: "in-1",
    });
    expect(inbound.status).toBe(201);
    const shipmentId = inbound.body.data.inbound_shipment_id;
    await call("patch", `/api/v1/inbound-shipments/${shipmentId}`, writer, { notes: "two cards" });
    await call("post", `/api/v1/inbound-shipments/${shipmentId}/attachments`, writer, {
      filename: "list.csv",
      content_type: "text/csv",
    });
    await call("post", `/api/v1/inbound-shipments/${shipmentId}/cancel`, writer);
    const pending = (await call("get", "/api/v1/inventory?limit=100", writer)).body.data.cards.find(
      (c: { identity: { status: string } }) => c.identity.status === "unconfirmed",
    );
    await call("post", "/api/v1/declared-values", writer, { unique_id: pending.unique_id, amount: 1234 });
    await call("post", "/api/v1/service-credits", writer, { reason: "late", order_id: q.body.data.order_id });
    // A warehouse 500 opens an integration issue; refusals and errors echo nothing of the caller's key.
    await api
      .post("/_emulator/faults")
      .send({ match: { path: "/api/v1/sla" }, status: 500, error: "internal_error", times: 1 })
      .expect(201);
    expect((await call("get", "/api/v1/sla", writer)).status).toBe(500);
    expect((await call("post", "/api/v1/withdrawals", reader, { unique_ids: [ids[3]], method: "pickup" })).status).toBe(
      403,
    );
    expect((await call("get", "/api/v1/mystery/catalog", writer)).status).toBe(403);
    expect((await call("get", "/api/v1/info", `${writer}x`)).status).toBe(401);
    await api
      .post("/_emulator/warehouse/billing/close")
      .send({ month: emu.clock.nowIso().slice(0, 7) })
      .expect(201);

    // Partner areas: custodial purchase, wallet, catalog, credits, instant, webhooks log.
    expect(
      (
        await call(
          "post",
          "/api/v1/mystery/purchase",
          partner,
          { tier_id: 1, external_user_id: "acme-user-1" },
          { "Idempotency-Key": "leak-1" },
        )
      ).status,
    ).toBe(202);
    await emu.clock.advance(10_000);
    for (const path of [
      "/api/v1/mystery/purchases",
      "/api/v1/wallet/balance?external_user_id=acme-user-1",
      "/api/v1/wallet/ledger?external_user_id=acme-user-1",
      "/api/v1/mystery/catalog",
      "/api/v1/mystery/stats",
      "/api/v1/instant/catalog",
      "/api/v1/account/usage",
      "/api/v1/pokemon/cards?limit=2",
      "/api/v1/webhooks",
      "/api/v1/webhooks/deliveries",
    ])
      await call("get", path, partner);

    // Every tenant read, by every tenant key (the read-only one included).
    const reads = [
      "/api/v1/info",
      "/api/v1/orders",
      "/api/v1/withdrawals",
      "/api/v1/card-transfers",
      "/api/v1/inbound-shipments",
      "/api/v1/declared-values",
      "/api/v1/invoices",
      "/api/v1/account",
      "/api/v1/reports",
      "/api/v1/exceptions",
      "/api/v1/sla",
      "/api/v1/service-credits",
      "/api/v1/activity?limit=100",
      "/api/v1/integration-status",
      "/api/v1/webhooks/deliveries",
    ];
    for (const key of [writer, reader, tenant, other]) for (const path of reads) await call("get", path, key);
    await emu.clock.advance(60_000);
    for (const r of rx.received)
      seen.push({ what: `webhook delivery ${r.path}`, text: `${r.body}\n${JSON.stringify(r.headers)}` });

    expect(rx.received.length).toBeGreaterThan(0);
    const activity = seen.find((s) => s.what.startsWith("GET /api/v1/activity?limit=100 → 200"));
    expect(activity?.text).toContain("order.cancelled");
    const keys = Object.keys(emu.services.store.state.keys);
    const leaks = seen.flatMap((s) =>
      keys
        .filter((k) => s.text.includes(k))
        .map((k) => `${s.what} shows ${emu.services.store.state.keys[k]!.label}'s key`),
    );
    expect(leaks).toEqual([]);
  });
});
