import { describe, it, expect } from "vitest";
import request from "supertest";
import { startEmulator, newKey, type Api, type Emulator, waitFor } from "../helpers.ts";
import { createEmulator } from "../../emulator/index.ts";
import { sweep, type WireCard, useTenant } from "./helpers.ts";
import { FIXTURE_COUNTS } from "../../fixtures/warehouse/index.ts";
import { expectWarehouseError } from "../../conformance/assert.ts";

let emu: Emulator;
let api: Api;
let tenant: string;
useTenant((ctx) => ({ emu, api, tenant } = ctx));

const TOTAL =
  FIXTURE_COUNTS.pending +
  FIXTURE_COUNTS.unpriced +
  FIXTURE_COUNTS.priced +
  FIXTURE_COUNTS.onchain +
  FIXTURE_COUNTS.graded;

describe("GET /info", () => {
  it("verifies a tenant key: tenant, scopes, plan, rate limit", async () => {
    const res = await api.get("/api/v1/info").set("X-API-Key", tenant).expect(200);
    expect(res.body.data).toMatchObject({
      key: { kind: "tenant", scopes: expect.arrayContaining(["read:inventory", "write:order"]) },
      tenant: { account_id: "northwind", unique_id_prefix: "CARD-NOR" },
      plan: "Pay as you go",
      rate_limit: { limit_per_min: 300 },
    });
    expect(res.headers["x-ratelimit-limit"]).toBe("300");
  });

  it("is a warehouse endpoint: partner and legacy keys get 403 Insufficient permissions, never a body", async () => {
    for (const name of ["demo", "revenue-share", "legacy"]) {
      const res = await api.get("/api/v1/info").set("X-API-Key", emu.key(name)).expect(403);
      expectWarehouseError(res, 403, "Insufficient permissions");
      expect(res.body.data).toBeUndefined();
    }
  });

  it("goes through the warehouse read pool (503 overloaded when it is full)", async () => {
    await withFullReadPool(async ({ api: a2, key, release }) => {
      const shed = await a2.get("/api/v1/info").set("X-API-Key", key).expect(503);
      expect(shed.body).toMatchObject({ success: false, error: "overloaded", code: "overloaded", retryable: true });
      await release();
      await a2.get("/api/v1/info").set("X-API-Key", key).expect(200);
    });
  });

  it("401 in the warehouse envelope without a valid key", async () => {
    const res = await api.get("/api/v1/info").expect(401);
    expect(res.body).toMatchObject({ success: false, message: expect.any(String), code: "API key required" });
    expectWarehouseError(
      await api.get("/api/v1/info").set("X-API-Key", "rip_v1_nope"),
      401,
      "API key not found or inactive",
    );
  });

  it("health stays public", async () => {
    await api.get("/api/v1/health").expect(200);
  });
});

describe("GET /cards (keyset sweep)", () => {
  it("a partner key gets 403 in the warehouse envelope; no key 401", async () => {
    const res = await api.get("/api/v1/cards").set("X-API-Key", emu.key("demo")).expect(403);
    expectWarehouseError(res, 403, "Insufficient permissions");
    expectWarehouseError(await api.get("/api/v1/cards"), 401, "API key required");
  });

  it("since=0 sweeps everything with r: cursors and next_cursor null at the end; default is raw only", async () => {
    const first = await api.get("/api/v1/cards").query({ since: 0, limit: 5 }).set("X-API-Key", tenant).expect(200);
    expect(first.body.data.cards).toHaveLength(5);
    expect(first.body.data.next_cursor).toMatch(/^r:/);
    expect(first.body.pagination).toBeUndefined();
    const raw = await sweep(api, tenant, "raw");
    expect(raw).toHaveLength(TOTAL - FIXTURE_COUNTS.graded);
    expect(raw.every((c) => c.type === "raw")).toBe(true);
    const defaultSweep: WireCard[] = [];
    let since: string | null = "0";
    while (since) {
      const r: { body: { data: { cards: WireCard[]; next_cursor: string | null } } } = await api
        .get("/api/v1/cards")
        .query({ since, limit: 7 })
        .set("X-API-Key", tenant)
        .expect(200);
      defaultSweep.push(...r.body.data.cards);
      since = r.body.data.next_cursor;
    }
    expect(defaultSweep.map((c) => c.unique_id)).toEqual(raw.map((c) => c.unique_id));
  });

  it("type=graded lists only slabs; type=all both, in one namespace", async () => {
    const graded = await sweep(api, tenant, "graded");
    expect(graded).toHaveLength(FIXTURE_COUNTS.graded);
    expect(graded.every((c) => c.type === "graded" && c.unique_id.startsWith("CARD-NOR"))).toBe(true);
    const all = await sweep(api, tenant, "all");
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all.map((c) => c.unique_id)).size).toBe(TOTAL);
  });

  it("a later sweep from the resume cursor sees only changed cards", async () => {
    const end = await api
      .get("/api/v1/cards")
      .query({ since: 0, limit: 100, type: "all" })
      .set("X-API-Key", tenant)
      .expect(200);
    expect(end.body.data.next_cursor).toBeNull();
    const resume = end.body.data.resume_cursor as string;
    const none = await api
      .get("/api/v1/cards")
      .query({ since: resume, type: "all" })
      .set("X-API-Key", tenant)
      .expect(200);
    expect(none.body.data.cards).toEqual([]);
    const pending = (end.body.data.cards as WireCard[]).find((c) => c.identity.status === "unconfirmed")!;
    await api.post(`/_emulator/warehouse/cards/${pending.unique_id}/confirm-identity`).send({}).expect(200);
    const changed = await api
      .get("/api/v1/cards")
      .query({ since: resume, type: "all" })
      .set("X-API-Key", tenant)
      .expect(200);
    expect(changed.body.data.cards.map((c: WireCard) => c.unique_id)).toEqual([pending.unique_id]);
    expect(changed.body.data.cards[0].identity.status).toBe("confirmed");
  });

  it("rejects bad cursors, types, limits and offset with clear 400s", async () => {
    expectWarehouseError(await api.get("/api/v1/cards?since=abc").set("X-API-Key", tenant), 400, "invalid_cursor");
    expectWarehouseError(await api.get("/api/v1/cards?since=r:zzzz").set("X-API-Key", tenant), 400, "invalid_cursor");
    expectWarehouseError(await api.get("/api/v1/cards?type=sealed").set("X-API-Key", tenant), 400, "invalid_type");
    expectWarehouseError(await api.get("/api/v1/cards?limit=abc").set("X-API-Key", tenant), 400, "invalid_pagination");
    expectWarehouseError(await api.get("/api/v1/cards?offset=10").set("X-API-Key", tenant), 400, "invalid_pagination");
    const clamped = await api.get("/api/v1/cards?limit=5000&type=all").set("X-API-Key", tenant).expect(200);
    expect(clamped.body.data.cards).toHaveLength(Math.min(100, TOTAL));
  });

  it("covers every identity/pricing combination of the interface document", async () => {
    const all = await sweep(api, tenant, "all");
    for (const c of all) {
      expect(c.unique_id.length).toBeLessThanOrEqual(22);
      expect(c.unique_id).toMatch(/^CARD-NOR[0-9A-Z]+$/);
      if (c.identity.status === "unconfirmed") {
        expect(c.pricing).toEqual({ status: "unverified", market_price: null });
        expect(c.insured_price).toBeNull();
      } else if (c.pricing.status === "unpriced") {
        expect(c.pricing.market_price).toBeNull();
        expect(c.insured_price).toBeNull();
        expect(c.declared_value).toBeNull();
      } else {
        expect(c.pricing.status).toBe("priced");
        expect(c.pricing.market_price).toMatch(/^\d+\.\d{2}$/);
        expect(c.insured_price).toMatch(/^\d+\.\d{2}$/);
        expect(c.declared_value).toEqual({ amount: expect.any(Number), source: "service" });
        expect(Number.isInteger(c.declared_value!.amount)).toBe(true);
      }
    }
    const pending = all.filter((c) => c.identity.status === "unconfirmed" && c.declared_value?.source === "tenant");
    expect(pending.length).toBeGreaterThan(0);
    expect(all.some((c) => c.pricing.status === "unpriced")).toBe(true);
    expect(all.some((c) => c.location === "ONCHAIN")).toBe(true);
  });

  it("unique_ids are stable per seed and differ across seeds and tenants", async () => {
    const a = await createEmulator({ seed: 1, clock: "manual", port: 0 });
    const b = await createEmulator({ seed: 2, clock: "manual", port: 0 });
    try {
      const ids = async (e: Emulator, key: string) => {
        const r = await request(e.url).get("/api/v1/cards?type=all&limit=100").set("x-api-key", key);
        return (r.body as { data: { cards: WireCard[] } }).data.cards.map((c) => c.unique_id);
      };
      const mine = await sweep(api, tenant, "all");
      // (an earlier test moved one card to the end of the keyset order, so compare as sets)
      expect((await ids(a, a.key("tenant"))).sort()).toEqual(mine.map((c) => c.unique_id).sort());
      expect(await ids(b, b.key("tenant"))).not.toEqual(mine.map((c) => c.unique_id));
      const other = await newKey(api, { kind: "tenant", account_id: "globex" });
      const theirs = await ids(emu, other);
      expect(theirs[0]).toMatch(/^CARD-GLO/);
      expect(theirs.some((id) => mine.some((c) => c.unique_id === id))).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("GET /cards/{unique_id}", () => {
  it("returns the card directly under data; 404 not_found for another tenant's or a missing id", async () => {
    const [card] = await sweep(api, tenant, "graded");
    const res = await api.get(`/api/v1/cards/${card.unique_id}`).set("X-API-Key", tenant).expect(200);
    expect(res.body.data).toMatchObject({
      unique_id: card.unique_id,
      type: "graded",
      grading: { company: expect.any(String) },
    });
    expect(res.body.data.status).toBeUndefined();
    expectWarehouseError(await api.get("/api/v1/cards/CARD-NOPE0000").set("X-API-Key", tenant), 404, "not_found");
    const other = await newKey(api, { kind: "tenant", account_id: "initech" });
    expectWarehouseError(await api.get(`/api/v1/cards/${card.unique_id}`).set("X-API-Key", other), 404, "not_found");
    expectWarehouseError(
      await api.get(`/api/v1/cards/${"x".repeat(256)}`).set("X-API-Key", tenant),
      400,
      "identifier_too_long",
    );
  });
});

describe("GET /inventory (offset listing)", () => {
  it("adds status, total and pending_identity (overlapping, not additive) with offset pagination", async () => {
    const res = await api
      .get("/api/v1/inventory")
      .query({ limit: 10, offset: 5, type: "all" })
      .set("X-API-Key", tenant)
      .expect(200);
    expect(res.body.pagination).toEqual({ limit: 10, offset: 5, has_more: true });
    expect(res.body.data.cards).toHaveLength(10);
    expect(res.body.data.cards.every((c: WireCard) => typeof c.status === "string")).toBe(true);
    expect(res.body.data.total).toBe(TOTAL);
    const all = await sweep(api, tenant, "all");
    expect(res.body.data.pending_identity).toBe(all.filter((c) => c.identity.status === "unconfirmed").length);
    expectWarehouseError(
      await api.get("/api/v1/inventory?status=LOST").set("X-API-Key", tenant),
      400,
      "invalid_status",
    );
    expectWarehouseError(
      await api.get("/api/v1/inventory?offset=x").set("X-API-Key", tenant),
      400,
      "invalid_pagination",
    );
  });
});

describe("warehouse read pool", () => {
  it("sheds reads beyond the pool with 503 overloaded (error and code both the label), Retry-After: 1", async () => {
    await withFullReadPool(async ({ api: a2, key, release }) => {
      const shed = await a2.get("/api/v1/inventory").set("X-API-Key", key).expect(503);
      expect(shed.body).toMatchObject({ success: false, error: "overloaded", code: "overloaded", retryable: true });
      expect(shed.headers["retry-after"]).toBe("1");
      // writes are not in the read pool
      expectWarehouseError(
        await a2.post("/api/v1/declared-values").set("X-API-Key", key).send({}),
        400,
        "invalid_unique_ids",
      );
      // the held read ends with its injected fault (status 500, code "slow")
      const held = await release();
      expectWarehouseError(held, 500, "slow");
      await a2.get("/api/v1/inventory").set("X-API-Key", key).expect(200);
    });
  });
});

/** An emulator whose warehouse read pool (size 1) is held by one slow read; `release` lets it finish. */
async function withFullReadPool(
  run: (ctx: { api: Api; key: string; release: () => Promise<{ status: number; body: unknown }> }) => Promise<void>,
) {
  const { emu: e2, api: a2, close: c2 } = await startEmulator({ gates: { warehouse_read: 1 } });
  try {
    const key = e2.key("tenant");
    await a2
      .post("/_emulator/faults")
      .send({ match: { path: "/api/v1/cards" }, status: 500, error: "slow", latency_ms: 1000, times: 1 })
      .expect(201);
    const held = a2
      .get("/api/v1/cards")
      .set("X-API-Key", key)
      .then((r) => r);
    await waitFor(() => e2.services.gates.inUse("warehouse_read") === 1, "the held request to enter the pool");
    await run({ api: a2, key, release: async () => (await e2.clock.advance(1000), held) });
  } finally {
    await c2();
  }
}
