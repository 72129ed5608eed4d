import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COUNTERS, hashIndex, hexId, upgradeLegacyCounters, warehouseCardCounter } from "../../emulator/state/ids.ts";
import type { State } from "../../emulator/state/schema.ts";
import { Store } from "../../emulator/state/store.ts";
import { makeKey } from "../../fixtures/keys.ts";

// One id scheme (docs/decisions.md, "One way for each job"): counters named `<area>.<record>` in one
// module, older state files' counters read under today's names, one deterministic source of hashed ids.

const ROOT = join(__dirname, "../..");
const empty = (counters: Record<string, number> = {}) =>
  new Store(() => ({ seed: 1, catalog_size: "default", keys: {}, credits: {}, counters, areas: {} }) as State);

describe("ids", () => {
  it("every counter is named <area>.<record>, once, and counts from its wire start", () => {
    const all = Object.values(COUNTERS);
    for (const c of all) expect(c.name, c.name).toMatch(/^[a-z]+\.[a-z_]+$/);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
    const store = empty();
    expect(
      [COUNTERS.mysteryPurchase, COUNTERS.warehouseOrder, COUNTERS.webhook, COUNTERS.instantPurchase].map((c) =>
        store.nextId(c),
      ),
    ).toEqual([5001, 100_001, 1, 1]);
    expect([store.nextId(COUNTERS.mysteryPurchase), store.nextId(warehouseCardCounter("acct_1"))]).toEqual([
      5002, 1000,
    ]);
    expect(store.state.counters).toEqual({
      "mystery.purchase": 5002,
      "warehouse.order": 100_001,
      "webhooks.webhook": 1,
      "instant.purchase": 1,
      "warehouse.card.acct_1": 1000,
    });
  });

  it("a state file's older counter names are read under today's, so its ids go on where they stopped", () => {
    const counters: Record<string, number> = {
      "mystery-purchase": 5007,
      webhook_delivery: 12,
      "warehouse.order": 100_004,
    };
    upgradeLegacyCounters(counters);
    expect(counters).toEqual({ "mystery.purchase": 5007, "webhooks.delivery": 12, "warehouse.order": 100_004 });
    const store = empty(counters);
    expect([store.nextId(COUNTERS.mysteryPurchase), store.nextId(COUNTERS.webhookDelivery)]).toEqual([5008, 13]);
  });

  it("hashed ids keep their wire forms", () => {
    expect(hexId("1:1", 24)).toMatch(/^[0-9a-f]{24}$/);
    expect(hexId("x")).toBe("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881");
    expect(makeKey(42, "partner")).toMatch(/^rip_v1_[A-Za-z0-9_-]{43}$/);
    expect(hashIndex("x", 1000)).toBe(0x2d711642 % 1000);
  });

  it("no other module names a counter by a string or draws an id from its own random source", () => {
    const sources = ["emulator", "fixtures", "chain"].flatMap((dir) =>
      (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
        .filter((f) => f.endsWith(".ts") && !f.includes("generated"))
        .map((f) => ({ path: `${dir}/${f}`, text: readFileSync(join(ROOT, dir, f), "utf8") })),
    );
    const own = sources
      .filter((f) => f.path !== "emulator/state/ids.ts")
      // The fixture images seed their pixels from their path: image content, not an id.
      .filter((f) => f.path !== "emulator/areas/vision/png.ts")
      // The cached deployment's file is named by a hash of what it depends on: a content key, not an id.
      .filter(
        (f) => f.path !== "chain/deploy-cache.ts" || /nextId\(["`]|randomUUID|randomBytes|Math\.random\(/.test(f.text),
      )
      .filter((f) =>
        /nextId\(["`]|createHash\(|randomUUID|randomBytes|Math\.random\(|function mulberry32|function hashString/.test(
          f.text,
        ),
      )
      .map((f) => f.path);
    expect(own).toEqual([]);
  });
});
