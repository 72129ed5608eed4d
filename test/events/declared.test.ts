import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EVENT_CATALOGUE,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  LISTED_ORDER,
  PARTNER_EVENT_TYPES,
  WAREHOUSE_EVENT_TYPES,
  type EventType,
} from "../../contract/events.ts";
import { exampleEventData } from "../../contract/event-examples.ts";
import { eventsOf, type AnyLifecycle } from "../../contract/lifecycle.ts";
import { declaringTable, LIFECYCLES, PARTNER_TABLES, TENANT_TABLES } from "../../contract/lifecycles/index.ts";
import { publishEvent } from "../../emulator/events/publish.ts";
import { eventLogOf } from "../../emulator/events/log.ts";
import * as mystery from "../../emulator/areas/mystery/payloads.ts";
import { INSTANT_PAYLOADS } from "../../emulator/areas/instant/payloads.ts";
import { ORDER_PAYLOADS, ORDER_SIDE_PAYLOADS } from "../../emulator/areas/warehouse/payloads.ts";
import { expectError } from "../../conformance/assert.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";

// One publisher, one log, every event from a lifecycle table (docs/architecture.md, the table of where a change goes):
// each event type of the contract's catalogue is declared by exactly one table, as a row's event or a side
// event, and has exactly one payload builder; the publisher refuses a type no table declares and a payload
// its contract refuses, so nothing is published (or logged) from outside the tables.

/** Every area's payload builders: row events (keyed by the table's events) and side events. */
const BUILDERS: readonly Readonly<Record<string, unknown>>[] = [
  mystery.PURCHASE_PAYLOADS,
  mystery.PURCHASE_SIDE_PAYLOADS,
  mystery.REDEMPTION_PAYLOADS,
  mystery.OFFER_PAYLOADS,
  mystery.OFFER_SIDE_PAYLOADS,
  mystery.TRANSFER_PAYLOADS,
  mystery.PAYOUT_PAYLOADS,
  INSTANT_PAYLOADS,
  ORDER_PAYLOADS,
  ORDER_SIDE_PAYLOADS,
];

describe("the event catalogue and the lifecycle tables", () => {
  it("declare every event type of the catalogue in exactly one table, and nothing else", () => {
    const declarations = LIFECYCLES.flatMap((lc) => eventsOf(lc).map((type) => ({ type, table: lc.name })));
    for (const type of EVENT_TYPES) {
      const by = declarations.filter((d) => d.type === type).map((d) => d.table);
      expect(by, type).toHaveLength(1);
      expect(declaringTable(type)).toBe(by[0]);
    }
    expect(declarations.map((d) => d.type).sort()).toEqual([...EVENT_TYPES].sort());
    // The side events named so far: published beside a table's records, not by a move.
    const sides = Object.fromEntries(LIFECYCLES.map((lc) => [lc.name, (lc.sideEvents ?? []).map((e) => e.event)]));
    expect(sides["mystery purchase"]).toEqual(["pool.item_pulled", "deposit.credited"]);
    expect(sides["buyback offer"]).toEqual(["sellback.confirmed"]);
    expect(sides["order"]).toEqual(["card.returned"]);
    expect(declaringTable("constructor")).toBeNull();
    expect(declaringTable("card.price_updated")).toBeNull();
  });

  it("give every declared event type exactly one payload builder (each one publishable)", () => {
    for (const lc of LIFECYCLES)
      for (const type of eventsOf(lc)) {
        const owners = BUILDERS.filter((b) => Object.hasOwn(b, type));
        expect(owners, `${lc.name}: ${type}`).toHaveLength(1);
        expect(typeof owners[0]![type]).toBe("function");
      }
    const built = BUILDERS.flatMap((b) => Object.keys(b)).sort();
    expect(built).toEqual([...EVENT_TYPES].sort());
  });

  it("declare each type's data shape and example in the table, and nothing a row or side event does not publish", () => {
    for (const lc of LIFECYCLES) {
      const rows = new Set(lc.transitions.flatMap((t) => t.events));
      expect(Object.keys(lc.catalogue).sort(), lc.name).toEqual([...rows].sort());
      for (const side of lc.sideEvents ?? []) expect(rows.has(side.event), `${lc.name}: ${side.event}`).toBe(false);
    }
    // The catalogue is what the tables say: the same schema object and example function, and which table.
    for (const lc of LIFECYCLES)
      for (const type of eventsOf(lc)) {
        const declared = lc.catalogue[type] ?? lc.sideEvents!.find((e) => e.event === type)!;
        const entry = EVENT_CATALOGUE[type as EventType];
        expect(entry.data).toBe(declared.data);
        expect(entry.example).toBe(declared.example);
        expect(entry).toMatchObject({ type, table: lc.name, side: !(type in lc.catalogue) });
      }
    expect(Object.keys(EVENT_CATALOGUE).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("send each table's events to its accounts: the partner tables' to partners, the tenant tables' to tenants", () => {
    const partner = PARTNER_TABLES as readonly AnyLifecycle[];
    const tenant = TENANT_TABLES as readonly AnyLifecycle[];
    for (const lc of LIFECYCLES) {
      const kinds = [partner.includes(lc), tenant.includes(lc)].filter(Boolean);
      // Every table that publishes is in exactly one list (the webhook delivery table publishes none).
      if (eventsOf(lc).length) expect(kinds, lc.name).toHaveLength(1);
      for (const type of eventsOf(lc))
        expect(EVENT_CATALOGUE[type as EventType].accounts).toBe(partner.includes(lc) ? "partner" : "tenant");
    }
    expect([...EVENT_TYPES]).toEqual([...PARTNER_EVENT_TYPES, ...WAREHOUSE_EVENT_TYPES]);
    expect(WAREHOUSE_EVENT_TYPES).toEqual(expect.arrayContaining(["card.returned", "order.returned"]));
  });

  it("list the types in the service's documented order, which names only declared types", () => {
    expect(LISTED_ORDER.filter((t) => declaringTable(t) === null)).toEqual([]);
    expect(new Set(LISTED_ORDER).size).toBe(LISTED_ORDER.length);
    // The listed types keep the documented order; a type the list lacks follows the listed ones of its accounts.
    expect(EVENT_TYPES.filter((t) => LISTED_ORDER.includes(t))).toEqual(LISTED_ORDER);
    for (const types of [PARTNER_EVENT_TYPES, WAREHOUSE_EVENT_TYPES]) {
      const listed = types.map((t) => LISTED_ORDER.includes(t));
      expect(listed.slice(listed.indexOf(false) === -1 ? listed.length : listed.indexOf(false))).not.toContain(true);
    }
  });

  it("give every type an example its own schema takes, different per n", () => {
    for (const type of EVENT_TYPES) {
      const [a, b] = [1, 2].map((n) => exampleEventData(type, { n, now: "2026-01-01T00:00:00.000Z" }));
      expect(EVENT_SCHEMAS[type].safeParse(a).error, type).toBeUndefined();
      expect(EVENT_SCHEMAS[type].safeParse(b).error, type).toBeUndefined();
      expect(a, type).not.toEqual(b);
    }
  });

  it("let one transition publish more than one event, in the row's order", () => {
    const order = LIFECYCLES.find((lc) => lc.name === "order")!;
    const events = (trigger: string) => order.transitions.find((t) => t.trigger === trigger)!.events;
    expect(events("ship")).toEqual(["order.tracking_updated", "order.tracking_status_changed"]);
    expect(events("return")).toEqual(["order.tracking_updated", "order.tracking_status_changed", "order.returned"]);
  });
});

describe("the publisher", () => {
  let emu: Emulator;
  let api: Api;
  beforeAll(async () => ({ emu, api } = await startEmulator()));
  afterAll(() => emu.close());

  it("refuses a type no table declares and a payload its contract refuses, logging nothing", () => {
    const before = eventLogOf(emu.services).length;
    const now = { n: 1, now: emu.clock.nowIso() };
    expect(() => publishEvent(emu.services, "acme", "card.price_updated" as EventType, "x", { card_id: "c" })).toThrow(
      "no lifecycle table declares card.price_updated",
    );
    const bad = { ...exampleEventData("purchase.fulfilled", now), purchase_id: "seven" };
    expect(() => publishEvent(emu.services, "acme", "purchase.fulfilled", "x", bad)).toThrow(
      "purchase.fulfilled data is not its contract's (purchase_id:",
    );
    expect(eventLogOf(emu.services)).toHaveLength(before);
  });

  it("logs each event it publishes once, in the one log the area views read", async () => {
    const data = exampleEventData("purchase.refunded", { n: 2, now: emu.clock.nowIso() });
    publishEvent(emu.services, "acme", "purchase.refunded", "p-2", data);
    const row = eventLogOf(emu.services).at(-1)!;
    expect(row).toEqual({ account_id: "acme", type: "purchase.refunded", key: "p-2", data, at: emu.clock.nowIso() });
    const mysteryView = await api.get("/_emulator/mystery/events?type=purchase.refunded").expect(200);
    expect(mysteryView.body.data.events).toEqual([row]);
    // The instant view shows only the instant table's events.
    const instantView = await api.get("/_emulator/instant/events?type=purchase.refunded").expect(200);
    expect(instantView.body.data.events).toEqual([]);
  });

  it("takes an operator's triggered event into the log, outside the areas' views", async () => {
    const res = await api
      .post("/_emulator/events")
      .send({ type: "purchase.failed", account_id: "acme", event_key: "t-1", wait: false })
      .expect(201);
    const row = eventLogOf(emu.services).at(-1)!;
    expect(row).toMatchObject({ type: "purchase.failed", key: "t-1", data: res.body.data.event.data, triggered: true });
    const view = await api.get("/_emulator/mystery/events?type=purchase.failed").expect(200);
    expect(view.body.data.events).toEqual([]);
  });

  it("imports an older state's per-area logs (accepted, no longer read)", async () => {
    const doc = (await api.get("/_emulator/state").expect(200)).body.data;
    const old = { type: "instant_purchase.reserved", account_id: "acme", key: "1", at: emu.clock.nowIso() };
    doc.state.areas.instant = {
      enabled: true,
      purchases: {},
      events: [{ ...old, data: { purchase_id: 1, status: "RESERVED" } }],
    };
    await api.put("/_emulator/state").send(doc).expect(200);
    expect((await api.get("/_emulator/instant/events").expect(200)).body.data.events).toEqual([]);
  });

  it("answers a triggered event whose data breaks its contract with 400 invalid_value, publishing nothing", async () => {
    const before = eventLogOf(emu.services).length;
    const res = await api
      .post("/_emulator/events")
      .send({ type: "purchase.fulfilled", account_id: "acme", data: { purchase_id: "seven" } });
    expectError(res, 400, "invalid_value");
    expect(res.body.message).toContain("data is not a purchase.fulfilled payload: purchase_id:");
    expect(eventLogOf(emu.services)).toHaveLength(before);
  });
});
