import { describe, it, expect } from "vitest";
import request from "supertest";
import { apiCall } from "../helpers.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";

// Same seed, same calls → the same state, byte for byte (ids, secrets, cursors, timestamps).

async function script(emu: Emulator): Promise<unknown[]> {
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await apiCall(request(emu.url), method, path, { "x-api-key": key }, body);
    return { status: res.status, body: res.body as unknown };
  };
  const demo = emu.key("demo");
  const tenant = emu.key("tenant");
  const out: unknown[] = [];
  out.push(await call("GET", "/api/v1/pokemon/cards?q=name:char*&page_size=5", demo));
  out.push(
    await call("POST", "/api/v1/webhooks", demo, {
      url: "http://127.0.0.1:9/hook",
      event_types: ["purchase.fulfilled"],
    }),
  );
  out.push(await call("POST", "/api/v1/webhooks", tenant, { url: "http://127.0.0.1:9/wh" }));
  const cards = (await call("GET", "/api/v1/cards?since=0&limit=50", tenant)) as {
    body: { data: { cards: { unique_id: string; identity?: { status: string } }[] } };
  };
  out.push(cards);
  const shippable = cards.body.data.cards
    .filter((c) => c.identity?.status === "confirmed")
    .slice(0, 2)
    .map((c) => c.unique_id);
  out.push(
    await call("POST", "/api/v1/shipping-quote", tenant, {
      unique_ids: shippable,
      address: { name: "A", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" },
    }),
  );
  out.push(
    await call("POST", "/api/v1/inbound-shipments", tenant, {
      submission_key: "det-1",
      carrier: "ups",
      tracking_number: "1Z999",
      expected_card_count: 3,
      declared_value_per_card: 2500,
    }),
  );
  out.push(
    await call("POST", "/api/v1/vision/identify", demo, {
      image_url: "https://images.emulator.test/pokemon/base1-4/large.png",
    }),
  );
  // A delivery attempt (to a closed port): its outbox record is part of the state.
  out.push(await call("POST", "/_emulator/events", demo, { type: "purchase.fulfilled", key: demo }));
  await emu.clock.advance(3_600_000);
  out.push(await call("GET", "/api/v1/account/usage", demo));
  out.push(await call("GET", "/api/v1/webhooks/deliveries", demo));
  return out;
}

const WALL_HEADERS = new Set(["X-Mystery-Timestamp", "X-Mystery-Signature", "duration_ms"]);
const withoutWallStamps = (state: unknown): unknown =>
  JSON.parse(JSON.stringify(state), (k, v: unknown) => (WALL_HEADERS.has(k) ? "<wall clock>" : v));

describe("determinism", () => {
  it("two emulators with the same seed end in identical states after the same calls", async () => {
    const a = await createEmulator({ seed: 42, clock: "manual", port: 0 });
    const b = await createEmulator({ seed: 42, clock: "manual", port: 0 });
    try {
      const ra = await script(a);
      const rb = await script(b);
      expect(ra.map((r) => (r as { status: number }).status).filter((s) => s >= 300)).toEqual([]);
      const strip = (xs: unknown[]) => JSON.parse(JSON.stringify(xs));
      expect(strip(rb)).toEqual(strip(ra));
      // Deliveries are signed with the wall-clock time of the attempt (docs/decisions.md) and their
      // duration is measured: those differ between runs; everything else, the outbox's virtual `at` included, does not.
      const a1 = a.exportState();
      const b1 = b.exportState();
      expect(JSON.stringify(a1)).toContain("X-Mystery-Signature");
      expect(withoutWallStamps(b1)).toEqual(withoutWallStamps(a1));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("another seed gives other keys and data", async () => {
    const a = await createEmulator({ seed: 1, clock: "manual", port: 0 });
    const b = await createEmulator({ seed: 2, clock: "manual", port: 0 });
    try {
      expect(b.key("demo")).not.toBe(a.key("demo"));
      const page = async (e: Emulator) =>
        (await request(e.url).get("/api/v1/pokemon/cards?page_size=50&page=3").set("x-api-key", e.key("demo"))).body
          .data;
      expect(await page(b)).not.toEqual(await page(a));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
